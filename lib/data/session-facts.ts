// What the session lists show besides a session's own row: who wrote its
// last event, and how many error events it has (where the store can tell).
import { requireViewer } from '../current-principal';
import { getStore } from '../services';
import type { SessionSummary } from '../session-service/types';

export interface SessionFacts {
  /** Author of the newest event; null for a session without events. */
  lastAuthor: string | null;
  /** Error events (errorCode or errorMessage set); null where the store cannot tell cheaply (an agent's store). */
  errors: number | null;
}

const factsKey = (userId: string, sessionId: string) => `${userId}\u0000${sessionId}`;
export { factsKey };

/** Facts of a page of sessions of one app (key: factsKey). A session whose events cannot be read gets no last author. */
export async function getSessionFacts(appName: string, sessions: SessionSummary[]): Promise<Map<string, SessionFacts>> {
  await requireViewer();
  const store = await getStore();
  const refs = sessions.map((session) => ({ userId: session.userId, sessionId: session.id }));
  const [errors, authors] = await Promise.all([
    store.errorEventCounts ? store.errorEventCounts(appName, refs) : Promise.resolve(null),
    Promise.all(
      refs.map((ref) =>
        store
          .listEvents({ appName, ...ref }, { newestFirst: true, limit: 1 })
          .then((page) => page.items[0]?.event.author ?? null)
          .catch(() => null),
      ),
    ),
  ]);
  return new Map(
    refs.map((ref, index) => [
      factsKey(ref.userId, ref.sessionId),
      { lastAuthor: authors[index] ?? null, errors: errors ? (errors.get(factsKey(ref.userId, ref.sessionId)) ?? 0) : null },
    ]),
  );
}

/** Whether the served store can find sessions with errors and sort by event count (Statehouse's own store can). */
export async function sessionListAbilities(): Promise<{ errors: boolean }> {
  return { errors: (await getStore()).errorEventCounts !== undefined };
}
