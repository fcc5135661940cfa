import { findSessions } from '@/lib/data/search';
import { getNoteDigests } from '@/lib/data/notes';
import { DEFAULT_PAGE_SIZE, type SessionListQuery } from '@/lib/data/list-params';
import { EmptyState } from './empty-state';
import type { ListQuery } from './href';
import { Pagination } from './pagination';
import { SessionsTable } from './sessions-table';

/** The URL parameters of a session search, defaults left out. */
export function sessionListParams(query: SessionListQuery): ListQuery {
  return {
    q: query.q,
    key: query.key,
    value: query.value,
    sort: query.sort === 'recent' ? undefined : query.sort,
    size: query.size === DEFAULT_PAGE_SIZE ? undefined : query.size,
  };
}

interface SessionListProps {
  appName: string;
  /** One user's sessions; all of the app's when absent. */
  userId?: string;
  query: SessionListQuery;
  pathname: string;
  /** Parameters of the page the list lives on that its links keep (the app page's tab). */
  pageParams?: ListQuery;
}

/** One page of sessions, searched and sorted as the URL says, with its pagination. */
export async function SessionList({ appName, userId, query, pathname, pageParams = {} }: SessionListProps) {
  const { items, total, totalIsLowerBound } = await findSessions(appName, query, userId);
  const notes = await getNoteDigests(
    appName,
    items.map((session) => ({ userId: session.userId, sessionId: session.id })),
  );
  const listQuery = { ...pageParams, ...sessionListParams(query) };
  const filtered = query.q !== undefined || query.key !== undefined || query.value !== undefined;

  if (items.length === 0 && query.page === 1) {
    return filtered ? (
      <EmptyState title="No session matches">{describeSearch(query)}</EmptyState>
    ) : (
      <EmptyState title="No sessions">
        {userId === undefined
          ? 'This app has shared state but no sessions: they may have been deleted.'
          : 'This user has user state but no sessions: they may have been deleted.'}
      </EmptyState>
    );
  }
  return (
    <>
      {filtered ? <p className="mb-2 text-sm text-muted">{describeSearch(query)}</p> : null}
      {items.length > 0 ? (
        <SessionsTable
          caption={userId === undefined ? `Sessions of ${appName}` : `Sessions of user ${userId}`}
          sessions={items}
          showUser={userId === undefined}
          sort={query.sort}
          pathname={pathname}
          query={listQuery}
          now={Date.now()}
          notes={notes}
        />
      ) : null}
      <Pagination
        pathname={pathname}
        query={listQuery}
        page={query.page}
        size={query.size}
        total={total}
        totalIsLowerBound={totalIsLowerBound}
        noun="sessions"
      />
    </>
  );
}

/** The search in words: "Sessions whose id contains “ab” and whose state has user:plan = "pro"". */
function describeSearch(query: SessionListQuery): string {
  const parts: string[] = [];
  if (query.q !== undefined) parts.push(`whose id contains “${query.q}”`);
  if (query.key !== undefined && query.stateValue !== undefined) {
    parts.push(`whose state has ${query.key} = ${JSON.stringify(query.stateValue)}`);
  } else if (query.key !== undefined) {
    parts.push(`whose state has the key ${query.key}`);
  } else if (query.stateValue !== undefined) {
    parts.push(`with any state key equal to ${JSON.stringify(query.stateValue)}`);
  }
  return `Sessions ${parts.join(' and ')}.`;
}
