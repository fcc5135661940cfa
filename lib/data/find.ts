// The header search: apps by name, and whatever the store finds (users,
// sessions, shared state) by ids, titles, labels and state values.
import { distinctHits, MIN_FIND_LENGTH, type FindHit, type FindRequest, type FindResult } from '../session-service/search';
import type { SessionStore } from '../session-service/store';

/** Apps whose name contains the text, then the store's hits, at most `limit` in all. */
export async function findAnything(store: SessionStore, request: FindRequest & { limit: number }): Promise<FindResult> {
  const needle = request.text.trim().toLowerCase();
  if (needle === '') return { hits: [] };
  const [apps, found] = await Promise.all([
    store.listApps(),
    needle.length >= MIN_FIND_LENGTH ? store.find(request) : Promise.resolve<FindResult>({ hits: [] }),
  ]);
  const named: FindHit[] = apps
    .filter((app) => app.appName.toLowerCase().includes(needle) && (request.appName === undefined || app.appName === request.appName))
    .map((app) => ({ kind: 'app', appName: app.appName, matched: 'name', snippet: app.appName }));
  return { ...found, hits: distinctHits([...named, ...found.hits], request.limit) };
}
