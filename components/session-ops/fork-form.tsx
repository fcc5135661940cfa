'use client';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { OpForm } from './op-form';
import { useAction } from '@/components/actions/use-action';
import { useStoreRouter } from '@/components/nav/store-link';
import { useId, useState } from 'react';
import { forkSession } from '@/lib/actions/session-ops';
import { sessionPath } from '@/lib/paths';
import type { SessionRef } from '@/lib/session-service/store';

/** Forks the session after an event into a new session of the same user, then opens the fork. */
export function ForkForm({ session, eventCount, onClose }: { session: SessionRef; eventCount: number; onClose: () => void }) {
  const router = useStoreRouter();
  const id = useId();
  const [atSeq, setAtSeq] = useState(String(eventCount));
  const [forkId, setForkId] = useState('');
  const { pending, failure, run } = useAction(forkSession);
  const submit = () =>
    run({ ...session, atSeq: Number(atSeq), forkId }, (fork) => router.push(sessionPath(session.appName, session.userId, fork.id)));
  return (
    <OpForm title="Fork this session" onSubmit={submit} failure={failure} pending={pending} submit={['Fork', 'Forking…']} onClose={onClose}>
      <p className="text-sm text-muted">
        A new session of user <span className="font-mono">{session.userId}</span> with events #1 to #N copied and the session state as it
        stood right after #N. <strong>App and user state are shared, not copied:</strong> the fork reads and writes the same{' '}
        <code>app:</code> and <code>user:</code> keys as this session.
      </p>
      <div className="flex flex-wrap gap-3">
        <div>
          <Label htmlFor={`${id}-seq`}>After event # (1 to {eventCount})</Label>
          <Input id={`${id}-seq`} type="number" min={1} max={eventCount} value={atSeq} onChange={(event) => setAtSeq(event.target.value)} />
        </div>
        <div className="grow">
          <Label htmlFor={`${id}-id`}>New session id (blank: generated)</Label>
          <Input id={`${id}-id`} value={forkId} onChange={(event) => setForkId(event.target.value)} className="font-mono" />
        </div>
      </div>
    </OpForm>
  );
}
