'use client';

import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { forkSession } from '@/lib/actions/session-ops';
import { sessionPath } from '@/lib/paths';
import type { SessionRef } from '@/lib/session-service/store';
import { Refusal } from './refusal';
import { button, input, label, panel, primaryButton } from './styles';
import { useOperation } from './use-operation';

/** Forks the session after an event into a new session of the same user, then opens the fork. */
export function ForkForm({ session, eventCount, onClose }: { session: SessionRef; eventCount: number; onClose: () => void }) {
  const router = useRouter();
  const id = useId();
  const [atSeq, setAtSeq] = useState(String(eventCount));
  const [forkId, setForkId] = useState('');
  const { pending, refusal, run } = useOperation(forkSession);
  const submit = () =>
    run({ ...session, atSeq: Number(atSeq), forkId }, (fork) => router.push(sessionPath(session.appName, session.userId, fork.id)));
  return (
    <form
      className={panel}
      aria-label="Fork this session"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h2 className="font-semibold">Fork this session</h2>
      <p className="text-sm text-muted">
        A new session of user <span className="font-mono">{session.userId}</span> with events #1 to #N copied and the session state as it
        stood right after #N. <strong>App and user state are shared, not copied:</strong> the fork reads and writes the same{' '}
        <code>app:</code> and <code>user:</code> keys as this session.
      </p>
      <div className="flex flex-wrap gap-3">
        <div>
          <label htmlFor={`${id}-seq`} className={label}>
            After event # (1 to {eventCount})
          </label>
          <input
            id={`${id}-seq`}
            type="number"
            min={1}
            max={eventCount}
            value={atSeq}
            onChange={(event) => setAtSeq(event.target.value)}
            className={input}
          />
        </div>
        <div className="grow">
          <label htmlFor={`${id}-id`} className={label}>
            New session id (blank: generated)
          </label>
          <input id={`${id}-id`} value={forkId} onChange={(event) => setForkId(event.target.value)} className={`${input} font-mono`} />
        </div>
      </div>
      <Refusal refusal={refusal} />
      <div className="flex gap-2">
        <button type="submit" disabled={pending} className={primaryButton}>
          {pending ? 'Forking…' : 'Fork'}
        </button>
        <button type="button" onClick={onClose} className={button}>
          Cancel
        </button>
      </div>
    </form>
  );
}
