// The app-wide search of events on an agent's store, through the event docs
// the search follower keeps in Statehouse's own database (the events' text,
// key: the event's place in its session). Each event found is read back from
// the agent's database, so a doc the follower has not brought up to date yet
// (the session changed since) finds nothing rather than the wrong event.
import {
  DEFAULT_FIND_LIMIT,
  eventSearchText,
  MIN_FIND_LENGTH,
  snippetOf,
  type EventHit,
  type EventIndexBuilding,
  type EventSearchRequest,
  type EventSearchResult,
} from '../../../session-service/search';
import type { AgentQuery } from '../agent-db';
import type { AdkStoreContext } from './context';
import type { EventDoc } from './search-index';

/** Docs read per event wanted: some may be stale, and are dropped when read back. */
const DOCS_PER_HIT = 2;

/** The event at its place in the session, when it still has the text the doc says it has. */
async function readBack(ctx: AdkStoreContext, qx: AgentQuery, doc: EventDoc, appName: string, text: string): Promise<EventHit | null> {
  const { e } = ctx;
  const rows = await qx.all(
    `SELECT ${e.cols} FROM ${e.t} WHERE ${e.app} = ? AND ${e.user} = ? AND ${e.session} = ? ORDER BY ${e.ts}, ${e.id} LIMIT 1 OFFSET ?`,
    [appName, doc.userId, doc.sessionId, doc.seq - 1],
  );
  const row = rows[0];
  if (!row) return null;
  try {
    const event = ctx.rows.event(row);
    const body = eventSearchText(event);
    if (!body.toLowerCase().includes(text.toLowerCase())) return null;
    return {
      userId: doc.userId,
      sessionId: doc.sessionId,
      seq: doc.seq,
      author: event.author,
      timestamp: event.timestamp,
      snippet: snippetOf(body, text),
    };
  } catch {
    return null;
  }
}

export async function searchEvents(ctx: AdkStoreContext, request: EventSearchRequest): Promise<EventSearchResult | EventIndexBuilding> {
  const status = ctx.indexStatus();
  if (!ctx.searchIndex || !status?.filled) {
    const built = status && status.total > 0 ? Math.floor((100 * status.indexed) / status.total) : 0;
    return { indexBuilt: Math.min(99, built) };
  }
  const text = request.text.trim();
  const limit = request.limit ?? DEFAULT_FIND_LIMIT;
  if (text.length < MIN_FIND_LENGTH) return { hits: [], method: 'index' };
  const docs = await ctx.searchIndex.findEvents(ctx.info.id, { text, appName: request.appName, limit: limit * DOCS_PER_HIT });
  const hits = await ctx.db.read(async (qx) => {
    const found: EventHit[] = [];
    for (const doc of docs) {
      const hit = await readBack(ctx, qx, doc, request.appName, text);
      if (hit) found.push(hit);
    }
    return found;
  });
  return { hits: hits.sort((a, b) => b.timestamp - a.timestamp || b.seq - a.seq).slice(0, limit), method: 'index' };
}
