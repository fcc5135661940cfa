import { findSessions } from '@/lib/data/search';
import { getNoteDigests } from '@/lib/data/notes';
import { DEFAULT_PAGE_SIZE, filterParamNames, stateFilterOf, type SessionListQuery } from '@/lib/data/list-params';
import { OPERATOR_LABELS } from '@/lib/session-service/state-filter';
import { getSessionFacts, sessionListAbilities } from '@/lib/data/session-facts';
import { ErrorFilterLink } from './error-filter-link';
import { EmptyState } from './empty-state';
import type { ListQuery } from './href';
import { Pagination } from './pagination';
import { SessionsTable } from './sessions-table';

/** The URL parameters of a session search, defaults left out. */
export function sessionListParams(query: SessionListQuery): ListQuery {
  const filters: ListQuery = {};
  query.filters.forEach((filter, index) => {
    const names = filterParamNames(index);
    filters[names.key] = filter.key;
    filters[names.op] = filter.op;
    filters[names.value] = filter.value;
  });
  return {
    q: query.q,
    ...filters,
    ...(query.filters.length === 0 ? { value: query.value } : {}),
    sort: query.sort === 'recent' ? undefined : query.sort,
    errors: query.errors ? '1' : undefined,
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
  const [notes, facts, abilities] = await Promise.all([
    getNoteDigests(
      appName,
      items.map((session) => ({ userId: session.userId, sessionId: session.id })),
    ),
    getSessionFacts(appName, items),
    sessionListAbilities(),
  ]);
  const listQuery = { ...pageParams, ...sessionListParams(query) };
  const filtered = query.q !== undefined || query.filters.length > 0 || query.value !== undefined || query.errors;

  if (items.length === 0 && query.page === 1) {
    return filtered ? (
      <>
        {abilities.errors && query.errors ? <ErrorFilterLink pathname={pathname} query={listQuery} on /> : null}
        <EmptyState title="No session matches">{describeSearch(query)}</EmptyState>
      </>
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
      {abilities.errors ? <ErrorFilterLink pathname={pathname} query={listQuery} on={query.errors} /> : null}
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
          facts={facts}
          sortByEvents={abilities.errors}
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

/** The search in words: "Sessions whose id contains “ab” and whose user:plan equals "pro"". */
function describeSearch(query: SessionListQuery): string {
  const parts: string[] = [];
  if (query.errors) parts.push('with an error event');
  if (query.q !== undefined) parts.push(`whose id contains “${query.q}”`);
  for (const input of query.filters) {
    const filter = stateFilterOf(input);
    parts.push(
      filter.op === 'exists'
        ? `whose state has ${filter.key}`
        : `whose ${filter.key} ${OPERATOR_LABELS[filter.op]} ${filter.op === 'contains' ? `“${String(filter.value)}”` : JSON.stringify(filter.value)}`,
    );
  }
  if (query.stateValue !== undefined) {
    parts.push(`with any state key equal to ${JSON.stringify(query.stateValue)}`);
  }
  return `Sessions ${parts.join(' and ')}.`;
}
