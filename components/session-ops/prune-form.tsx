'use client';

import { useStoreRouter } from '@/components/nav/store-link';
import { useId, useState, type ReactNode } from 'react';
import { ActionOutcome } from '@/components/actions/action-outcome';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { panelClass } from '@/components/ui/panel';
import { useAction } from '@/components/actions/use-action';
import { pruneSessions } from '@/lib/actions/session-ops';
import { userPath } from '@/lib/paths';
import type { PruneCount } from '@/lib/session-service/operations';
import type { SessionRef } from '@/lib/session-service/store';
import type { InvocationChoice } from './rewind-form';
import { Choice } from '@/components/ui/choice';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

type SessionTarget = 'session' | 'invocation' | 'eventsBefore';

/** What a prune deletes, beside the app or session it runs over (the action's input without dryRun and reason). */
type PruneWhat =
  | { appName: string; idleDays: number }
  | (SessionRef & ({ target: 'session' } | { target: 'invocation'; invocationId: string } | { target: 'eventsBefore'; before: number }));

export type PruneScope =
  | { appName: string }
  | {
      session: SessionRef;
      invocations: InvocationChoice[];
      /** Why this store does not delete some of a session's events: only the whole session is offered. */
      eventsRefused?: string;
    };

/**
 * Admin retention, counted first (a dry run), then deleted with a reason the
 * history keeps; state is not rewound. Over an app: the sessions idle for N
 * days. Over one session: the whole session, one invocation's events, or the
 * events before a time.
 */
export function PruneForm({ scope, onClose }: { scope: PruneScope; onClose: () => void }) {
  const router = useStoreRouter();
  const id = useId();
  const [days, setDays] = useState('90');
  const [target, setTarget] = useState<SessionTarget>('session');
  const [invocationId, setInvocationId] = useState('session' in scope ? (scope.invocations[0]?.invocationId ?? '') : '');
  const [before, setBefore] = useState('');
  const [reason, setReason] = useState('');
  const [counted, setCounted] = useState<{ key: string; count: PruneCount } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const { pending, failure, run } = useAction(pruneSessions);

  const what: PruneWhat =
    'appName' in scope
      ? { appName: scope.appName, idleDays: Number(days) }
      : target === 'session'
        ? { ...scope.session, target }
        : target === 'invocation'
          ? { ...scope.session, target, invocationId }
          : { ...scope.session, target, before: before ? new Date(before).getTime() / 1000 : Number.NaN };
  const key = JSON.stringify(what);
  const current = counted?.key === key ? counted.count : null;
  const wholeSessions = 'appName' in scope || target === 'session';
  const describe = (count: PruneCount) =>
    wholeSessions ? `${plural(count.sessions, 'session')} with ${plural(count.events, 'event')}` : plural(count.events, 'event');

  const remove = () =>
    run({ ...what, dryRun: false, reason }, (count) => {
      if ('session' in scope && target === 'session') {
        router.push(userPath(scope.session.appName, scope.session.userId));
        return;
      }
      setDone(`Deleted ${describe(count)}.`);
      setCounted(null);
      router.refresh();
    });

  const label = 'appName' in scope ? 'Delete idle sessions' : 'Delete from this session';
  return (
    <form className={panelClass({ className: 'space-y-3 p-4' })} aria-label={label} onSubmit={(event) => event.preventDefault()}>
      {'appName' in scope ? (
        <>
          <h2 className="font-semibold">Delete idle sessions</h2>
          <p className="text-sm text-muted">
            Sessions whose last activity is older than this, with their events and session state. App and user state stay.
          </p>
          <div>
            <Label htmlFor={`${id}-days`}>Idle for more than (days)</Label>
            <Input id={`${id}-days`} type="number" min={1} value={days} onChange={(e) => setDays(e.target.value)} />
          </div>
        </>
      ) : (
        <SessionTargetFields
          id={id}
          invocations={scope.invocations}
          eventsRefused={scope.eventsRefused}
          target={target}
          onTarget={setTarget}
          invocationId={invocationId}
          onInvocationId={setInvocationId}
          before={before}
          onBefore={setBefore}
        />
      )}
      <Button onClick={() => run({ ...what, dryRun: true }, (count) => setCounted({ key, count }))} disabled={pending}>
        Count what would be deleted
      </Button>
      {current ? (
        <p role="status" className="text-sm" data-testid="prune-count">
          Would delete {describe(current)}.
        </p>
      ) : null}
      <div>
        <Label htmlFor={`${id}-reason`}>Reason (kept in the history)</Label>
        <Input id={`${id}-reason`} value={reason} onChange={(e) => setReason(e.target.value)} />
      </div>
      <ActionOutcome failure={failure} done={done} />
      <div className="flex gap-2">
        <Button variant="danger" onClick={remove} disabled={pending || !current || !reason.trim()}>
          Delete
        </Button>
        <Button onClick={onClose}>Close</Button>
      </div>
    </form>
  );
}

const SESSION_TARGETS: [SessionTarget, string][] = [
  ['session', 'The whole session'],
  ['invocation', 'The events of one invocation'],
  ['eventsBefore', 'The events before a time'],
];

function SessionTargetFields(props: {
  id: string;
  invocations: InvocationChoice[];
  eventsRefused: string | undefined;
  target: SessionTarget;
  onTarget: (target: SessionTarget) => void;
  invocationId: string;
  onInvocationId: (value: string) => void;
  before: string;
  onBefore: (value: string) => void;
}): ReactNode {
  const { id, target } = props;
  return (
    <>
      <h2 className="font-semibold">Delete for good</h2>
      <p className="text-sm text-muted">
        Deleting events does not rewind state: every tier keeps its values and their history. Deleting the session removes its session state
        and that state&apos;s history; the app and user state it wrote stays.
      </p>
      <fieldset className="space-y-1 text-sm">
        <legend className="block text-xs font-medium text-muted">What</legend>
        {SESSION_TARGETS.filter(([value]) => value === 'session' || props.eventsRefused === undefined).map(([value, text]) => (
          <Choice
            key={value}
            type="radio"
            name={`${id}-target`}
            value={value}
            checked={target === value}
            onChange={() => props.onTarget(value)}
          >
            {text}
          </Choice>
        ))}
      </fieldset>
      {props.eventsRefused ? <p className="text-sm text-muted">{props.eventsRefused}</p> : null}
      {target === 'invocation' ? (
        <div>
          <Label htmlFor={`${id}-inv`}>Invocation</Label>
          <Input
            id={`${id}-inv`}
            list={`${id}-list`}
            value={props.invocationId}
            onChange={(e) => props.onInvocationId(e.target.value)}
            className="font-mono"
          />
          <datalist id={`${id}-list`}>
            {props.invocations.map((choice) => (
              <option key={choice.invocationId} value={choice.invocationId} />
            ))}
          </datalist>
        </div>
      ) : null}
      {target === 'eventsBefore' ? (
        <div>
          <Label htmlFor={`${id}-before`}>Before (your time zone)</Label>
          <Input id={`${id}-before`} type="datetime-local" step={1} value={props.before} onChange={(e) => props.onBefore(e.target.value)} />
        </div>
      ) : null}
    </>
  );
}

/** An app's "Delete idle sessions…" button, opening the prune form over the app. */
export function IdlePrune({ appName }: { appName: string }) {
  const [open, setOpen] = useState(false);
  if (!open) return <Button onClick={() => setOpen(true)}>Delete idle sessions…</Button>;
  return <PruneForm scope={{ appName }} onClose={() => setOpen(false)} />;
}
