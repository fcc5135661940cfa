// The app-wide search of events by text, for the app page's Events tab. A
// store with a text index of its events answers from it (Statehouse's own,
// and an agent's store once the index Statehouse keeps of it is filled); any
// other (an agent's store without that index, or while its first fill runs)
// is read a session at a time, newest first, within a time budget, and the
// answer says how many of the app's sessions it read.
import { requireViewer } from '../current-principal';
import { getStore } from '../services';
import {
  DEFAULT_FIND_LIMIT,
  eventSearchText,
  MIN_FIND_LENGTH,
  snippetOf,
  type EventHit,
  type EventSearchRequest,
  type EventSearchResult,
} from '../session-service/search';
import type { SessionStore } from '../session-service/store';

/** How long a scan reads sessions before it answers with what it found. */
export const SCAN_BUDGET_MS = 700;
/** Sessions listed per page of the scan, and read side by side. */
const SESSION_PAGE = 100;
const PARALLEL = 4;
/** Matching events taken from one session: a few, so one long session does not fill the answer. */
const PER_SESSION = 5;

/** Events of the app whose text contains the request's (at least MIN_FIND_LENGTH characters). */
export async function searchAppEvents(request: EventSearchRequest): Promise<EventSearchResult> {
  await requireViewer();
  const store = await getStore();
  if (request.text.trim().length < MIN_FIND_LENGTH) return { hits: [], method: store.searchEvents ? 'index' : 'scan' };
  const indexed = await store.searchEvents?.(request);
  if (indexed && 'hits' in indexed) return indexed;
  const scanned = await scanEvents(store, request);
  return indexed ? { ...scanned, indexBuilt: indexed.indexBuilt } : scanned;
}

/** Reads the app's sessions, newest first, for matching events until the limit or the budget is reached. */
export async function scanEvents(store: SessionStore, request: EventSearchRequest, budgetMs = SCAN_BUDGET_MS): Promise<EventSearchResult> {
  const text = request.text.trim();
  const limit = request.limit ?? DEFAULT_FIND_LIMIT;
  const deadline = performance.now() + budgetMs;
  const hits: EventHit[] = [];
  let searched = 0;
  let total = 0;
  for (let offset = 0; ; offset += SESSION_PAGE) {
    const page = await store.searchSessions({ appName: request.appName, order: 'recent', limit: SESSION_PAGE, offset });
    total = page.total;
    for (let at = 0; at < page.items.length; at += PARALLEL) {
      if (hits.length >= limit || performance.now() > deadline) return answer(hits, limit, searched, total);
      const batch = page.items.slice(at, at + PARALLEL);
      const found = await Promise.all(
        batch.map(async (session) => {
          const ref = { appName: request.appName, userId: session.userId, sessionId: session.id };
          const events = await store.listEvents(ref, { text, newestFirst: true, limit: PER_SESSION });
          return events.items.map(({ seq, event }) => ({
            userId: session.userId,
            sessionId: session.id,
            seq,
            author: event.author,
            timestamp: event.timestamp,
            snippet: snippetOf(eventSearchText(event), text),
          }));
        }),
      );
      searched += batch.length;
      hits.push(...found.flat());
    }
    if (page.items.length < SESSION_PAGE || offset + SESSION_PAGE >= total) return answer(hits, limit, searched, total);
  }
}

function answer(hits: EventHit[], limit: number, searched: number, total: number): EventSearchResult {
  const sorted = hits.sort((a, b) => b.timestamp - a.timestamp || b.seq - a.seq).slice(0, limit);
  return { hits: sorted, method: 'scan', ...(searched < total ? { coverage: { searched, total, unit: 'sessions' } } : {}) };
}
