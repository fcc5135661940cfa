// ListSessionsRequest's paging over a list already in memory, for stores
// that read every session anyway (a store that can should page in SQL, as
// the native store does): update-time order, ties kept in the list's order.
import { invalidInput } from './errors';
import type { ListSessionsRequest, SessionList } from './store';
import type { Session } from './types';

export function pageSessions(all: Session[], request: ListSessionsRequest): SessionList {
  const { limit, offset = 0, order = 'asc' } = request;
  for (const [name, value] of [
    ['limit', limit],
    ['offset', offset],
  ] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) throw invalidInput(`${name} must be a non-negative integer.`);
  }
  if (order !== 'asc' && order !== 'desc') throw invalidInput(`order must be asc or desc; got ${JSON.stringify(order)}.`);
  const sign = order === 'desc' ? -1 : 1;
  const sorted = all
    .map((session, i) => ({ session, i }))
    .sort((a, b) => sign * (a.session.lastUpdateTime - b.session.lastUpdateTime || a.i - b.i))
    .map(({ session }) => session);
  return { sessions: sorted.slice(offset, limit === undefined ? undefined : offset + limit), total: all.length };
}
