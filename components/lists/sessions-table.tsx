import { sessionPath, userPath } from '@/lib/paths';
import type { SessionSummary } from '@/lib/session-service';
import type { SessionSort } from '@/lib/data/list-params';
import { formatCount } from '../ui/format';
import type { ListQuery } from './href';
import { ListedTime } from './relative-time';
import { SessionTitle } from '@/components/session-ops/session-title';
import { Cell, Header, IdLink, ListHead, ListTable, Row, SortHeader } from './table';
import { NoteDigestCell } from '@/components/notes/note-digest';
import { digestKey, type NoteDigest } from '@/lib/session-service/notes';
import { factsKey, type SessionFacts } from '@/lib/data/session-facts';

interface SessionsTableProps {
  caption: string;
  sessions: SessionSummary[];
  /** Show the user column (an app's sessions); a user's own list leaves it out. */
  showUser: boolean;
  sort: SessionSort;
  pathname: string;
  query: ListQuery;
  now: number;
  /** Each session's notes (digestKey), when the list shows them. */
  notes?: Map<string, NoteDigest>;
  /** Last author and error events per session (factsKey). */
  facts?: Map<string, SessionFacts>;
  /** The store can sort by event count. */
  sortByEvents?: boolean;
}

export function SessionsTable({
  caption,
  sessions,
  showUser,
  sort,
  pathname,
  query,
  now,
  notes,
  facts,
  sortByEvents = false,
}: SessionsTableProps) {
  return (
    <ListTable caption={caption}>
      <ListHead>
        <Header>Session</Header>
        {showUser ? <Header>User</Header> : null}
        {sortByEvents ? (
          <SortHeader
            label="Events"
            sort="events"
            direction="descending"
            current={sort}
            defaultSort="recent"
            pathname={pathname}
            query={query}
            numeric
          />
        ) : (
          <Header numeric>Events</Header>
        )}
        {facts ? <Header numeric>Errors</Header> : null}
        {facts ? <Header>Last author</Header> : null}
        <Header>Created</Header>
        <SortHeader
          label="Last activity"
          sort="recent"
          direction="descending"
          toggle={{ sort: 'oldest', direction: 'ascending' }}
          current={sort}
          defaultSort="recent"
          pathname={pathname}
          query={query}
        />
        {notes ? <Header>Notes</Header> : null}
      </ListHead>
      <tbody className="divide-y divide-border">
        {sessions.map((session) => (
          <Row key={`${session.userId}\u0000${session.id}`}>
            <Cell>
              <IdLink href={sessionPath(session.appName, session.userId, session.id)}>{session.id}</IdLink>
              <SessionTitle title={session.title} labels={session.labels} />
            </Cell>
            {showUser ? (
              <Cell>
                <IdLink href={userPath(session.appName, session.userId)}>{session.userId}</IdLink>
              </Cell>
            ) : null}
            <Cell numeric>{formatCount(session.eventCount)}</Cell>
            {facts ? <FactCells facts={facts.get(factsKey(session.userId, session.id))} /> : null}
            <Cell>
              <ListedTime seconds={session.createTime} notes={session.unreadable} now={now} />
            </Cell>
            <Cell>
              <ListedTime seconds={session.lastUpdateTime} notes={session.unreadable} now={now} withAbsolute />
            </Cell>
            {notes ? (
              <Cell>
                <NoteDigestCell digest={notes.get(digestKey(session.userId, session.id))} />
              </Cell>
            ) : null}
          </Row>
        ))}
      </tbody>
    </ListTable>
  );
}

/** Error events (a badge when there are any; a dash where the store cannot tell) and the last event's author. */
function FactCells({ facts }: { facts: SessionFacts | undefined }) {
  const errors = facts?.errors ?? null;
  return (
    <>
      <Cell numeric>
        {errors === null ? (
          <span className="text-muted" title="Not counted on this store">
            —
          </span>
        ) : errors > 0 ? (
          <span className="rounded bg-danger-surface px-1.5 py-0.5 text-xs font-semibold text-danger">{formatCount(errors)}</span>
        ) : (
          <span className="text-muted">0</span>
        )}
      </Cell>
      <Cell className="break-words text-xs">{facts?.lastAuthor ?? <span className="text-muted">—</span>}</Cell>
    </>
  );
}
