'use client';

import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { pruneSessions } from '@/lib/actions/session-ops';
import { userPath } from '@/lib/paths';
import type { PruneCount } from '@/lib/session-service/operations';
import type { SessionRef } from '@/lib/session-service/store';
import { Refusal } from './refusal';
import type { InvocationChoice } from './rewind-form';
import { button, dangerButton, input, label, panel } from './styles';
import { useOperation } from './use-operation';

type Target = 'session' | 'invocation' | 'eventsBefore';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Admin retention for one session: the whole session, the events of one
 * invocation, or the events before a time. Counted first (a dry run), then
 * deleted with a reason that the history keeps. State is not rewound.
 */
export function PruneForm({
  session,
  invocations,
  onClose,
}: {
  session: SessionRef;
  invocations: InvocationChoice[];
  onClose: () => void;
}) {
  const router = useRouter();
  const id = useId();
  const [target, setTarget] = useState<Target>('session');
  const [invocationId, setInvocationId] = useState(invocations[0]?.invocationId ?? '');
  const [before, setBefore] = useState('');
  const [reason, setReason] = useState('');
  const [counted, setCounted] = useState<{ key: string; count: PruneCount } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const { pending, refusal, run } = useOperation(pruneSessions);

  const beforeSeconds = before ? new Date(before).getTime() / 1000 : Number.NaN;
  const what = target === 'session' ? { target } : target === 'invocation' ? { target, invocationId } : { target, before: beforeSeconds };
  const key = JSON.stringify(what);
  const current = counted?.key === key ? counted.count : null;

  const count = () => run({ ...session, ...what, dryRun: true }, (result) => setCounted({ key, count: result }));
  const remove = () =>
    run({ ...session, ...what, dryRun: false, reason }, (result) => {
      if (target === 'session') {
        router.push(userPath(session.appName, session.userId));
        return;
      }
      setDone(`Deleted ${plural(result.events, 'event')}.`);
      setCounted(null);
      router.refresh();
    });

  return (
    <form className={panel} aria-label="Delete from this session" onSubmit={(event) => event.preventDefault()}>
      <h2 className="font-semibold">Delete for good</h2>
      <p className="text-sm text-muted">
        Deleting events does not rewind state: every tier keeps its values and their history. Deleting the session removes its session state
        and that state&apos;s history; the app and user state it wrote stays.
      </p>
      <fieldset className="space-y-1 text-sm">
        <legend className={label}>What</legend>
        {(
          [
            ['session', 'The whole session'],
            ['invocation', 'The events of one invocation'],
            ['eventsBefore', 'The events before a time'],
          ] as const
        ).map(([value, text]) => (
          <label key={value} className="flex items-center gap-2">
            <input type="radio" name={`${id}-target`} value={value} checked={target === value} onChange={() => setTarget(value)} />
            {text}
          </label>
        ))}
      </fieldset>
      {target === 'invocation' ? (
        <div>
          <label htmlFor={`${id}-inv`} className={label}>
            Invocation
          </label>
          <input
            id={`${id}-inv`}
            list={`${id}-list`}
            value={invocationId}
            onChange={(e) => setInvocationId(e.target.value)}
            className={`${input} font-mono`}
          />
          <datalist id={`${id}-list`}>
            {invocations.map((choice) => (
              <option key={choice.invocationId} value={choice.invocationId} />
            ))}
          </datalist>
        </div>
      ) : null}
      {target === 'eventsBefore' ? (
        <div>
          <label htmlFor={`${id}-before`} className={label}>
            Before (your time zone)
          </label>
          <input
            id={`${id}-before`}
            type="datetime-local"
            step={1}
            value={before}
            onChange={(e) => setBefore(e.target.value)}
            className={input}
          />
        </div>
      ) : null}
      <button type="button" onClick={count} disabled={pending} className={button}>
        Count what would be deleted
      </button>
      {current ? (
        <p role="status" className="text-sm" data-testid="prune-count">
          Would delete {target === 'session' ? `${plural(current.sessions, 'session')} with ` : ''}
          {plural(current.events, 'event')}.
        </p>
      ) : null}
      <div>
        <label htmlFor={`${id}-reason`} className={label}>
          Reason (kept in the history)
        </label>
        <input id={`${id}-reason`} value={reason} onChange={(e) => setReason(e.target.value)} className={input} />
      </div>
      <Refusal refusal={refusal} />
      {done ? (
        <p role="status" className="text-sm text-success">
          {done}
        </p>
      ) : null}
      <div className="flex gap-2">
        <button type="button" onClick={remove} disabled={pending || !current || !reason.trim()} className={dangerButton}>
          Delete
        </button>
        <button type="button" onClick={onClose} className={button}>
          Close
        </button>
      </div>
    </form>
  );
}
