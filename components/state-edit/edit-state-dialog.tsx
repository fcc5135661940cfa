'use client';

import { useId } from 'react';
import type { TierRef } from '@/lib/queries/state-edit';
import { previewEdit } from '@/lib/session-service/delta-preview';
import { recordOfEntries } from '@/lib/session-service/merged-entries';
import { setOwn } from '@/lib/session-service/json';
import type { JsonValue, StateEntry } from '@/lib/session-service/types';
import { EditDiff } from './edit-diff';
import { draftErrors, draftKey, draftValue, valueError, type DraftErrors, type EditDraft } from './draft';
import { JsonField } from './json-field';
import { SessionReach } from './session-reach';
import { TextField } from './text-field';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';

interface EditStateDialogProps {
  tier: TierRef;
  draft: EditDraft;
  open: boolean;
  /** The tier as it is now: the diff's old values, and what the save checks has not changed meanwhile. */
  entries: StateEntry[];
  onChange: (draft: EditDraft) => void;
  onCancel: () => void;
  onConfirm: (draft: EditDraft, value: JsonValue | undefined, seen: { present: false } | { present: true; value: JsonValue }) => void;
}

export function prefixOf(tier: TierRef): string {
  return `${tier.scope}:`;
}

const TITLES = { add: 'Add a key to', edit: 'Edit', remove: 'Remove' } as const;

/**
 * A support edit of one key in two steps: the change (value as JSON, and a
 * required reason), then the diff and how many sessions read this state,
 * confirmed before anything is written.
 */
export function EditStateDialog({ tier, draft, open, entries, onChange, onCancel, onConfirm }: EditStateDialogProps) {
  const titleId = useId();
  const prefix = prefixOf(tier);
  const tierName = tier.scope === 'app' ? `${tier.appName}’s app state` : `${tier.userId ?? ''}’s user state`;
  const title = draft.mode === 'add' ? `${TITLES.add} ${tierName}` : `${TITLES[draft.mode]} ${prefix}${draft.key}`;

  const set = (patch: Partial<EditDraft>, cleared?: keyof DraftErrors) => {
    const serverErrors = { ...draft.serverErrors };
    if (cleared) delete serverErrors[cleared];
    onChange({ ...draft, ...patch, serverErrors });
  };

  const named = draftKey(draft, tier.scope);
  const key = named.ok ? named.key : draft.key;
  const errors = draftErrors(draft, tier.scope);
  const shownErrors: DraftErrors = { ...errors, ...draft.serverErrors };
  const canReview = Object.keys(errors).length === 0;
  const record = recordOfEntries(entries);
  const value = canReview ? draftValue(draft) : undefined;
  const changes: Record<string, JsonValue | undefined> = {};
  setOwn(changes, key, value);
  const diff = previewEdit(changes, record);
  const existing = entries.find((entry) => entry.key === key);
  const keyNote = named.ok ? named.note : null;

  const confirm = () => {
    if (!canReview) return;
    onConfirm({ ...draft, key }, value, existing ? { present: true, value: existing.value } : { present: false });
  };

  return (
    <Dialog open={open} onCancel={onCancel} labelledBy={titleId}>
      <form
        method="dialog"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (draft.step === 'form') {
            set(canReview ? { step: 'confirm', refusal: null } : { attempted: true });
          } else confirm();
        }}
        className="space-y-4 p-5"
      >
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>

        {draft.refusal ? (
          <div role="alert" className="rounded-md border border-danger/40 bg-danger-surface px-3 py-2 text-sm text-danger">
            <p className="font-medium">Not saved: {draft.refusal.message}</p>
            {draft.refusal.code === 'CONFLICT' ? <p className="mt-1">The diff below now shows the current value.</p> : null}
          </div>
        ) : null}

        {draft.step === 'form' ? (
          <>
            {draft.mode === 'add' ? (
              <TextField
                label="Key"
                value={draft.key}
                onChange={(key) => set({ key }, 'key')}
                prefix={prefix}
                error={draft.key === '' && !draft.attempted ? null : shownErrors.key}
                hint={keyNote ?? `Stored in the ${tier.scope} tier; agents read it as ${prefix}<key>.`}
                required
                mono
              />
            ) : null}
            {draft.mode === 'remove' ? (
              <p className="text-sm">
                Removes <code className="font-semibold">{prefix + draft.key}</code> from {tierName}. Agents that read it with{' '}
                <code>{`{${prefix}${draft.key}}`}</code> will fail until it is set again; <code>{`{${prefix}${draft.key}?}`}</code> reads
                empty.
              </p>
            ) : (
              <JsonField
                label="Value (JSON)"
                value={draft.valueText}
                onChange={(valueText) => set({ valueText }, 'value')}
                validate={(text) => (text.trim() === '' && !draft.attempted ? null : valueError(text))}
                serverError={draft.serverErrors.value}
                hint={'Strings need double quotes ("pro"); null stores null, it does not remove the key.'}
                rows={Math.min(14, Math.max(4, draft.valueText.split('\n').length + 1))}
                offerText
              />
            )}
            <TextField
              label="Reason"
              value={draft.reason}
              onChange={(reason) => set({ reason }, 'reason')}
              error={draft.reason === '' && !draft.attempted ? null : shownErrors.reason}
              hint="Recorded in the key’s history with your name and the time, e.g. a ticket number."
              required
              multiline
            />
          </>
        ) : (
          <>
            {keyNote ? <p className="rounded-md border border-warning/40 bg-warning-surface px-3 py-2 text-sm">{keyNote}</p> : null}
            <EditDiff changes={diff} prefix={prefix} />
            <p className="text-sm">
              <span className="font-medium">Reason:</span> {draft.reason.trim()}
            </p>
            <SessionReach tier={tier} />
            <p className="text-xs text-muted">Events are never rewritten: the edit is recorded in the key’s history.</p>
          </>
        )}

        <div className="flex flex-wrap justify-end gap-2 border-t border-border pt-4">
          <Button type="button" onClick={onCancel} variant="secondary">
            Cancel
          </Button>
          {draft.step === 'confirm' ? (
            <Button type="button" onClick={() => set({ step: 'form', refusal: null })} variant="secondary">
              Back to edit
            </Button>
          ) : null}
          <Button type="submit" variant={draft.mode === 'remove' && draft.step === 'confirm' ? 'danger' : 'primary'}>
            {draft.step === 'form' ? 'Review change' : draft.mode === 'remove' ? 'Confirm and remove' : 'Confirm and save'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
