'use client';

import { useQuery } from '@tanstack/react-query';
import { sessionApiPath } from '@/lib/paths';
import { getJson, queryString, retryTransient } from '@/lib/queries/session-api';
import type { SessionRef } from '@/lib/session-service/store';
import type { Event, Page, StoredEvent } from '@/lib/session-service/types';
import { Button } from '@/components/ui/button';

/** The sequence number of the invocation's first event: where what a rewind undid starts. */
function useFirstSeq(session: SessionRef, invocationId: string | null) {
  return useQuery({
    queryKey: ['rewind-first-seq', session.appName, session.userId, session.sessionId, invocationId],
    queryFn: async ({ signal }) => {
      const url = `${sessionApiPath(session)}/events${queryString({ invocationId, limit: 1 })}`;
      return (await getJson<Page<StoredEvent>>(url, signal)).items[0]?.seq ?? null;
    },
    enabled: invocationId !== null,
    staleTime: Number.POSITIVE_INFINITY,
    retry: retryTransient,
  });
}

/**
 * The rewind an event is, if it is one: the invocation it went back to, the
 * events it undid (that invocation's first event up to the one before the
 * rewind) and the session keys it put back.
 */
export function RewindNote({
  session,
  seq,
  event,
  onShowInvocation,
}: {
  session: SessionRef;
  seq: number;
  event: Event;
  onShowInvocation: (invocationId: string) => void;
}) {
  const target = event.actions?.rewindBeforeInvocationId;
  const first = useFirstSeq(session, typeof target === 'string' ? target : null);
  if (typeof target !== 'string') return null;
  const keys = Object.keys(event.actions.stateDelta ?? {});
  const from = first.data;
  return (
    <p className="rounded-md border border-border bg-surface-muted px-2 py-1 text-xs" data-testid="rewind-note">
      <span className="font-semibold">Rewind</span> to before invocation{' '}
      <Button variant="link" onClick={() => onShowInvocation(target)} className="font-mono font-normal">
        {target}
      </Button>
      : undid {typeof from === 'number' && from < seq ? `events #${from}–#${seq - 1}` : 'that invocation and every event after it'};{' '}
      {keys.length > 0 ? `restored ${keys.join(', ')}` : 'no session keys had changed'}.
    </p>
  );
}
