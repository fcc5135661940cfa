import type { Page, SessionSummary } from '../session-service';
import { limitOffset, type SessionListQuery } from './list-params';
import { readerService } from './reader';

/** One page of an app's sessions (or one user's, with `userId`), searched and sorted as the URL says. */
export async function findSessions(
  appName: string,
  query: SessionListQuery,
  userId?: string,
): Promise<Page<SessionSummary>> {
  const service = await readerService();
  return service.searchSessions({
    appName,
    userId,
    idContains: query.q,
    stateKey: query.key,
    stateValue: query.stateValue,
    order: query.sort,
    ...limitOffset(query),
  });
}
