'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useDeferredValue, useId, useState, useTransition } from 'react';
import { useAction } from '@/components/actions/use-action';
import { FieldError } from '@/components/ui/field';
import { JsonField } from '@/components/state-edit/json-field';
import { TextField } from '@/components/state-edit/text-field';
import { appendEvent } from '@/lib/actions/events';
import { liveStateOptions, sessionKeys } from '@/lib/queries/session';
import { refreshAfterAppend } from '@/lib/queries/state-edit';
import { previewDelta, tierRecords, type DeltaChange } from '@/lib/session-service/delta-preview';
import type { SessionRef } from '@/lib/session-service/store';
import { parseDeltaText } from '@/lib/validation/json-text';
import { DeltaPreview } from './delta-preview';
import {
  actionInput,
  blankDraft,
  deltaError,
  draftErrors,
  newInvocationId,
  objectError,
  type CallFields,
  type EventDraft,
  type EventErrors,
} from './event-draft';
import { Button } from '@/components/ui/button';
import { panelClass } from '@/components/ui/panel';
import { Choice } from '@/components/ui/choice';

/** What the page showed when the person started writing: appends are refused once storage has moved past it. */
interface Base {
  revision: number;
  eventCount: number;
}

const baseOf = (state: Base): Base => ({ revision: state.revision, eventCount: state.eventCount });

/**
 * Appends an event to the session from the dashboard: author, invocation id,
 * text, optional function call and response, and a stateDelta whose effect
 * is previewed tier by tier before it is sent. The append is guarded by the
 * revision the page showed when the form was opened: if anyone appended
 * since, it is refused with a conflict and a one-click reload, never applied
 * on top of state the person has not seen.
 */
/** `canWriteAppState`: whether the person's role may change app: keys (the form warns before sending a delta that does). */
export function AppendEventForm({ session, canWriteAppState }: { session: SessionRef; canWriteAppState: boolean }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const live = useQuery(liveStateOptions(session));
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<EventDraft>(() => blankDraft());
  const [base, setBase] = useState<Base | null>(null);
  const [attempted, setAttempted] = useState(false);
  const [serverErrors, setServerErrors] = useState<EventErrors>({});
  const [appended, setAppended] = useState<string | null>(null);
  const append = useAction(appendEvent);
  const [reloading, startReload] = useTransition();
  const pending = append.pending || reloading;
  const headingId = useId();

  // Opened before the page's state had loaded: start from the first state it shows
  // (set while rendering, as React does for state that follows props).
  if (open && base === null && live.data) setBase(baseOf(live.data));

  const deferredDelta = useDeferredValue(draft.stateDelta);
  const delta = parseDeltaText(deferredDelta);
  const tiers = live.data ? tierRecords(live.data) : null;
  const changes = delta.ok && tiers ? previewDelta(delta.value, tiers) : null;
  const errors = draftErrors(draft);
  const newEvents = base && live.data && live.data.revision > base.revision ? Math.max(1, live.data.eventCount - base.eventCount) : 0;

  const update = (patch: Partial<EventDraft>, ...fields: string[]) => {
    setDraft((current) => ({ ...current, ...patch }));
    if (fields.length > 0) {
      setServerErrors((current) => {
        const next = { ...current };
        for (const field of [...fields, 'form']) delete next[field];
        return next;
      });
    }
    setAppended(null);
  };
  const updateCall = (field: 'functionCall' | 'functionResponse', patch: Partial<CallFields>, changed: string) =>
    update({ [field]: { ...draft[field], ...patch } }, `${field}.${changed}`);

  const start = () => {
    setOpen(true);
    setBase(live.data ? baseOf(live.data) : null);
    setDraft((current) => (current.invocationId ? current : { ...current, invocationId: newInvocationId() }));
  };

  /** Brings the page (and the form's base) up to date; the draft stays as typed. */
  const reload = () => {
    startReload(async () => {
      router.refresh();
      await queryClient.invalidateQueries({ queryKey: sessionKeys.session(session) });
      const latest = queryClient.getQueryData(liveStateOptions(session).queryKey);
      setBase(latest ? baseOf(latest) : null);
      append.reset();
    });
  };

  const submit = () => {
    setAttempted(true);
    setAppended(null);
    if (Object.keys(errors).length > 0 || base === null) return;
    const input = actionInput(session, base.revision, draft);
    append.run(input, {
      onSuccess: async (appendedEvent) => {
        setBase({ revision: appendedEvent.revision, eventCount: base.eventCount + 1 });
        setDraft((current) => ({ ...blankDraft(current.author), invocationId: newInvocationId() }));
        setAttempted(false);
        setServerErrors({});
        setAppended(`Appended event ${appendedEvent.event.id} by ${appendedEvent.event.author}.`);
        await refreshAfterAppend(queryClient, session);
      },
      onFailure: (failure) => setServerErrors(failure.fieldErrors ?? {}),
    });
  };

  const appendedStatus = appended ? (
    <p role="status" className="text-sm text-success">
      {appended}
    </p>
  ) : null;

  if (!open) {
    return (
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="primary" onClick={start}>
          Append an event
        </Button>
        {appendedStatus}
      </div>
    );
  }

  const shown = (field: string) => serverErrors[field] ?? (attempted ? errors[field] : undefined);
  const refusal = append.failure;
  const stale = refusal?.code === 'STALE_SESSION';

  return (
    <section aria-labelledby={headingId} className={panelClass({ className: 'p-4' })}>
      <div className="flex items-baseline justify-between gap-2">
        <h2 id={headingId} className="text-base font-semibold">
          Append an event
        </h2>
        <Button variant="ghost" size="xs" onClick={() => setOpen(false)}>
          Close
        </Button>
      </div>

      {stale || newEvents > 0 ? (
        <div role="alert" className="mt-3 rounded-md border border-warning/50 bg-warning-surface px-3 py-2 text-sm text-warning">
          <p className="font-semibold">
            {stale ? 'Not appended: the session changed since you loaded it.' : 'The session changed while you were writing.'}
          </p>
          <p className="mt-0.5">
            {newEvents > 0
              ? `${newEvents === 1 ? 'One new event was' : `${newEvents} new events were`} appended by someone else. `
              : 'Someone else appended to it. '}
            Reload to see them; your draft stays as it is, and nothing is appended until you send it again.
          </p>
          <Button onClick={reload} disabled={pending} variant="secondary" className="mt-2">
            Reload session
          </Button>
        </div>
      ) : null}

      {refusal && !stale ? (
        <div role="alert" className="mt-3 rounded-md border border-danger/40 bg-danger-surface px-3 py-2 text-sm text-danger">
          Not appended: {refusal.fieldErrors?.form ?? refusal.message}
        </div>
      ) : null}

      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        className="mt-3 space-y-4"
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Author"
            value={draft.author}
            onChange={(author) => update({ author }, 'author')}
            error={shown('author')}
            hint="user, or the agent’s name"
            mono
          />
          <TextField
            label="Invocation id"
            value={draft.invocationId}
            onChange={(invocationId) => update({ invocationId }, 'invocationId')}
            error={shown('invocationId')}
            hint="Groups the events of one turn; blank generates one."
            mono
            after={<Button onClick={() => update({ invocationId: newInvocationId() }, 'invocationId')}>New id</Button>}
          />
        </div>
        <TextField label="Text" value={draft.text} onChange={(text) => update({ text }, 'text')} error={shown('text')} multiline />

        {(['functionCall', 'functionResponse'] as const).map((field) => {
          const call = draft[field];
          const label = field === 'functionCall' ? 'Function call' : 'Function response';
          return (
            <fieldset key={field} className="rounded-md border border-border px-3 py-2">
              <legend className="px-1 text-sm font-medium">
                <Choice
                  type="checkbox"
                  checked={call.enabled}
                  onChange={(event) => updateCall(field, { enabled: event.target.checked }, 'name')}
                >
                  {label}
                </Choice>
              </legend>
              {call.enabled ? (
                <div className="space-y-3 pb-1">
                  <div className="grid gap-3 sm:grid-cols-2">
                    <TextField
                      label={`${label} name`}
                      value={call.name}
                      onChange={(name) => updateCall(field, { name }, 'name')}
                      error={shown(`${field}.name`)}
                      mono
                    />
                    <TextField
                      label={`${label} id`}
                      value={call.id}
                      onChange={(id) => updateCall(field, { id }, 'id')}
                      error={shown(`${field}.id`)}
                      hint={field === 'functionCall' ? 'Blank generates one.' : 'Blank answers the call in this event, if any.'}
                      mono
                    />
                  </div>
                  <JsonField
                    label={field === 'functionCall' ? 'Arguments (JSON object)' : 'Response (JSON object)'}
                    value={call.json}
                    onChange={(json) => updateCall(field, { json }, 'json')}
                    validate={objectError}
                    serverError={serverErrors[`${field}.json`]}
                    rows={3}
                    placeholder="{}"
                  />
                </div>
              ) : null}
            </fieldset>
          );
        })}

        <JsonField
          label="State delta (JSON object)"
          value={draft.stateDelta}
          onChange={(stateDelta) => update({ stateDelta }, 'stateDelta')}
          validate={deltaError}
          serverError={serverErrors.stateDelta}
          hint="Keys as an agent writes them: topic (this session), user:plan, app:tone, temp:scratch."
          rows={5}
          placeholder={'{"user:plan": "pro"}'}
        />

        <div>
          <h3 className="mb-1 text-sm font-medium">Preview</h3>
          {!delta.ok ? (
            <p className="text-xs text-muted">Fix the state delta to see what it will do.</p>
          ) : changes ? (
            <>
              <DeltaPreview session={session} changes={changes} />
              <AppKeysRefusal changes={changes} canWriteAppState={canWriteAppState} />
            </>
          ) : (
            <p className="text-xs text-muted">Loading the session’s state…</p>
          )}
        </div>

        <FieldError id={`${headingId}-form`} message={attempted && !refusal ? errors.form : null} />
        <div className="flex items-center gap-3">
          <Button type="submit" variant="primary" disabled={pending || base === null}>
            {pending ? 'Appending…' : 'Append event'}
          </Button>
          {appendedStatus}
        </div>
      </form>
    </section>
  );
}

/** Said before sending: a role that may not write app: keys is refused the whole event when its delta changes one. */
function AppKeysRefusal({ changes, canWriteAppState }: { changes: DeltaChange[]; canWriteAppState: boolean }) {
  const appKeys = changes.filter((change) => change.scope === 'app' && change.kind !== 'unchanged').map((change) => change.prefixedKey);
  if (canWriteAppState || appKeys.length === 0) return null;
  return (
    <p role="alert" className="mt-2 rounded-md border border-danger/40 bg-danger-surface px-3 py-2 text-sm text-danger">
      Your role cannot change app: keys (app state needs the admin role), so this event would be refused: remove {appKeys.join(', ')}.
    </p>
  );
}
