import type { Page, SessionSummary } from '../session-service';
import { limitOffset, stateFilterOf, type SessionListQuery } from './list-params';
import { requireViewer } from '../current-principal';
import { getStore } from '../services';

/** One page of an app's sessions (or one user's, with `userId`), searched and sorted as the URL says. */
export async function findSessions(appName: string, query: SessionListQuery, userId?: string): Promise<Page<SessionSummary>> {
  await requireViewer();
  const service = await getStore();
  return service.searchSessions({
    appName,
    userId,
    idContains: query.q,
    stateValue: query.stateValue,
    filters: query.filters.map(stateFilterOf),
    order: query.sort,
    ...(query.errors ? { withErrors: true } : {}),
    ...limitOffset(query),
  });
}
