'use client';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { OpForm } from './op-form';
import { useAction } from '@/components/actions/use-action';
import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { rewindSession } from '@/lib/actions/session-ops';
import { refreshAfterAppend } from '@/lib/queries/state-edit';
import type { SessionRef } from '@/lib/session-service/store';

export interface InvocationChoice {
  invocationId: string;
  firstSeq: number;
}

/**
 * Rewinds as ADK's Runner.rewind_async does: a new `user` event that puts the
 * session-scope keys back as they were before the invocation. The events stay
 * in the log; app: and user: keys stay as they are.
 */
export function RewindForm({
  session,
  invocations,
  onClose,
}: {
  session: SessionRef;
  invocations: InvocationChoice[];
  onClose: () => void;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const id = useId();
  const [invocationId, setInvocationId] = useState(invocations[0]?.invocationId ?? '');
  const [done, setDone] = useState<string | null>(null);
  const { pending, failure, run } = useAction(rewindSession);
  const submit = () =>
    run({ ...session, rewindBeforeInvocationId: invocationId }, async (outcome) => {
      const keys = Object.keys(outcome.event.actions.stateDelta);
      setDone(
        `Rewound to before ${invocationId}: undid ${outcome.undoneEvents} event${outcome.undoneEvents === 1 ? '' : 's'}; ` +
          (keys.length > 0 ? `restored ${keys.join(', ')}.` : 'no session keys had changed.'),
      );
      await refreshAfterAppend(queryClient, session);
      router.refresh();
    });
  return (
    <OpForm
      title="Rewind this session"
      onSubmit={submit}
      failure={failure}
      done={done}
      pending={pending}
      submit={['Rewind', 'Rewinding…']}
      canSubmit={invocationId.trim() !== ''}
      close="Close"
      onClose={onClose}
    >
      <p className="text-sm text-muted">
        Appends a <code>user</code> event with <code>rewindBeforeInvocationId</code> whose delta puts the session keys back as they were
        before that invocation (as ADK&apos;s <code>Runner.rewind_async</code>). The events stay in the log; <code>app:</code> and{' '}
        <code>user:</code> keys are not touched.
      </p>
      <div>
        <Label htmlFor={`${id}-inv`}>Rewind to before invocation</Label>
        <Input
          id={`${id}-inv`}
          list={`${id}-list`}
          value={invocationId}
          onChange={(event) => setInvocationId(event.target.value)}
          className="font-mono"
        />
        <datalist id={`${id}-list`}>
          {invocations.map((choice) => (
            <option key={choice.invocationId} value={choice.invocationId}>
              from #{choice.firstSeq}
            </option>
          ))}
        </datalist>
      </div>
    </OpForm>
  );
}
