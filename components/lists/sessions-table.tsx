import { sessionPath, userPath } from '@/lib/paths';
import type { SessionSummary } from '@/lib/session-service';
import type { SessionSort } from '@/lib/data/list-params';
import { formatCount } from './format';
import type { ListQuery } from './href';
import { ListedTime } from './relative-time';
import { SessionTitle } from '@/components/session-ops/session-title';
import { Cell, Header, IdLink, ListHead, ListTable, Row, SortHeader } from './table';
import { NoteDigestCell } from '@/components/notes/note-digest';
import { digestKey, type NoteDigest } from '@/lib/session-service/notes';

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
}

export function SessionsTable({ caption, sessions, showUser, sort, pathname, query, now, notes }: SessionsTableProps) {
  return (
    <ListTable caption={caption}>
      <ListHead>
        <Header>Session</Header>
        {showUser ? <Header>User</Header> : null}
        <Header numeric>Events</Header>
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
