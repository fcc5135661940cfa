import { userPath } from '@/lib/paths';
import type { UserSummary } from '@/lib/session-service';
import type { UserSort } from '@/lib/data/list-params';
import { formatCount } from '../ui/format';
import type { ListQuery } from './href';
import { RelativeTime } from './relative-time';
import { Cell, IdLink, ListHead, ListTable, Row, SortHeader } from './table';

interface UsersTableProps {
  appName: string;
  users: UserSummary[];
  sort: UserSort;
  pathname: string;
  query: ListQuery;
  now: number;
}

export function UsersTable({ appName, users, sort, pathname, query, now }: UsersTableProps) {
  const sortable = { current: sort, defaultSort: 'recent', pathname, query };
  return (
    <ListTable caption={`Users of ${appName}`}>
      <ListHead>
        <SortHeader label="User" sort="id" direction="ascending" {...sortable} />
        <SortHeader label="Sessions" sort="sessions" direction="descending" numeric {...sortable} />
        <SortHeader label="Last activity" sort="recent" direction="descending" {...sortable} />
      </ListHead>
      <tbody className="divide-y divide-border">
        {users.map((user) => (
          <Row key={user.userId}>
            <Cell>
              <IdLink href={userPath(appName, user.userId)}>{user.userId}</IdLink>
            </Cell>
            <Cell numeric>{formatCount(user.sessionCount)}</Cell>
            <Cell>
              {user.lastUpdateTime === null ? (
                <span title="No session of this user has an update time that can be read" className="whitespace-nowrap text-danger">
                  unreadable
                </span>
              ) : (
                <RelativeTime seconds={user.lastUpdateTime} now={now} withAbsolute />
              )}
            </Cell>
          </Row>
        ))}
      </tbody>
    </ListTable>
  );
}
