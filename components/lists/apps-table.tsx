import { appPath } from '@/lib/paths';
import type { AppSummary } from '@/lib/session-service';
import type { AppSort } from '@/lib/data/list-params';
import { formatCount } from '../ui/format';
import type { ListQuery } from './href';
import { RelativeTime } from './relative-time';
import { Cell, Header, IdLink, ListHead, ListTable, Row, SortHeader } from './table';

interface AppsTableProps {
  apps: AppSummary[];
  sort: AppSort;
  pathname: string;
  query: ListQuery;
  now: number;
}

export function AppsTable({ apps, sort, pathname, query, now }: AppsTableProps) {
  const sortable = { current: sort, defaultSort: 'recent', pathname, query };
  return (
    <ListTable caption="Apps">
      <ListHead>
        <SortHeader label="App" sort="name" direction="ascending" {...sortable} />
        <SortHeader label="Sessions" sort="sessions" direction="descending" numeric {...sortable} />
        <Header numeric>Users</Header>
        <SortHeader label="Last activity" sort="recent" direction="descending" {...sortable} />
      </ListHead>
      <tbody className="divide-y divide-border">
        {apps.map((app) => (
          <Row key={app.appName}>
            <Cell>
              <IdLink href={appPath(app.appName)}>{app.appName}</IdLink>
            </Cell>
            <Cell numeric>{formatCount(app.sessionCount)}</Cell>
            <Cell numeric>{formatCount(app.userCount)}</Cell>
            <Cell>
              {app.lastUpdateTime === null ? (
                <span className="text-muted">No sessions (shared state only)</span>
              ) : (
                <RelativeTime seconds={app.lastUpdateTime} now={now} withAbsolute />
              )}
            </Cell>
          </Row>
        ))}
      </tbody>
    </ListTable>
  );
}
