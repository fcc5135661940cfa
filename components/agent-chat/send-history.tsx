'use client';

import { useQuery } from '@tanstack/react-query';
import { Timestamp } from '@/components/state';
import { sendsOptions } from '@/lib/queries/agent-send';
import type { SessionRef } from '@/lib/session-service/store';

const OUTCOME_TEXT = { sending: 'sending', done: 'answered', failed: 'failed', cancelled: 'cancelled' } as const;

/** Who sent what to the agent from the console, and how each send ended: the send log, newest first. */
export function SendHistory({ sessionRef }: { sessionRef: SessionRef }) {
  const sends = useQuery(sendsOptions(sessionRef));
  const items = sends.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-muted">Sent from the console ({items.length})</summary>
      <ul className="mt-1 space-y-0.5" aria-label="Sent from the console">
        {items.map((send) => (
          <li key={send.id} className="break-words">
            <Timestamp seconds={send.startTime} className="text-muted" /> <span className="font-medium">{send.actor}</span>: “{send.message}
            ” — {OUTCOME_TEXT[send.outcome]}
            {send.detail.eventIds ? ` (${send.detail.eventIds.length} events)` : ''}
            {send.detail.error ? `: ${send.detail.error.message}` : ''}
          </li>
        ))}
      </ul>
    </details>
  );
}
