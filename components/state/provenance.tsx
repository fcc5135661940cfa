'use client';

import { StoreLink } from '@/components/nav/store-link';
import { useRowTabIndex } from '@/components/json';
import { sessionPath } from '@/lib/paths';
import type { ChangeSource } from '@/lib/session-service/types';
import { Timestamp } from './timestamp';

export interface ProvenanceProps {
  appName: string;
  change: ChangeSource | null;
  /** The session the page shows: its own events are named "event #n", others' with their session. */
  currentSession?: { userId: string; sessionId: string };
  /** Called instead of navigating when the link points at an event of currentSession. */
  onSelectEvent?: (seq: number) => void;
}

/** Where a value came from: the event (with a link to it) or the edit (actor and reason), and when. */
export function Provenance({ appName, change, currentSession, onSelectEvent }: ProvenanceProps) {
  const tabIndex = useRowTabIndex();
  // No event or edit set it: it came with the session (createSession's state), which ADK keeps no record of.
  if (!change) return <span className="text-muted">Initial state (not set by an event)</span>;
  const { sourceUserId, sourceSessionId, eventSeq } = change;
  const own = currentSession && sourceUserId === currentSession.userId && sourceSessionId === currentSession.sessionId;
  let cause;
  if (sourceUserId !== null && sourceSessionId !== null && eventSeq !== null) {
    const href = `${sessionPath(appName, sourceUserId, sourceSessionId)}?event=${eventSeq}`;
    const text = own ? `event #${eventSeq}` : `event #${eventSeq} of session ${sourceSessionId}`;
    // The actor is whoever appended the event (an agent's author, or the account that appended it).
    cause = (
      <>
        set in{' '}
        <StoreLink
          href={href}
          onClick={(click) => {
            if (own && onSelectEvent && !click.metaKey && !click.ctrlKey && !click.shiftKey) {
              click.preventDefault();
              onSelectEvent(eventSeq);
            }
          }}
          tabIndex={tabIndex}
          className="font-medium text-accent underline underline-offset-2 hover:text-accent-hover"
        >
          {text}
        </StoreLink>{' '}
        by <span className="font-medium text-foreground">{change.actor}</span>
      </>
    );
  } else if (sourceUserId !== null && sourceSessionId !== null) {
    cause = own ? (
      <>initial state of this session</>
    ) : (
      <>
        initial state of session{' '}
        <StoreLink
          href={sessionPath(appName, sourceUserId, sourceSessionId)}
          tabIndex={tabIndex}
          className="text-accent underline underline-offset-2"
        >
          <bdi>{sourceSessionId}</bdi>
        </StoreLink>
      </>
    );
  } else {
    cause = (
      <>
        edited by <span className="font-medium text-foreground">{change.actor}</span>
        {change.reason ? <> — “{change.reason}”</> : null}
      </>
    );
  }
  return (
    <span className="text-muted">
      {cause} · <Timestamp seconds={change.time} />
    </span>
  );
}
