import type { Event } from '@/lib/session-service/types';

/** The rewind an event is, if it is one: which invocation it went back to and which session keys it put back. */
export function RewindNote({ event, onShowInvocation }: { event: Event; onShowInvocation: (invocationId: string) => void }) {
  const target = event.actions?.rewindBeforeInvocationId;
  if (typeof target !== 'string') return null;
  const keys = Object.keys(event.actions.stateDelta ?? {});
  return (
    <p className="rounded-md border border-border bg-surface-muted px-2 py-1 text-xs" data-testid="rewind-note">
      <span className="font-semibold">Rewind</span> to before invocation{' '}
      <button type="button" onClick={() => onShowInvocation(target)} className="font-mono text-accent hover:underline">
        {target}
      </button>
      : undid that invocation and every event after it, up to this one;{' '}
      {keys.length > 0 ? `restored ${keys.join(', ')}` : 'no session keys had changed'}.
    </p>
  );
}
