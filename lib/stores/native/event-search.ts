// The app-wide search of events on Statehouse's own tables: the event docs
// the search_index migration's triggers keep (parts' text, tool names, error
// code and message), found through the text index, with each event's author
// and time read by its primary key.
import { join, raw, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import type { SqlExecutor } from '../../db/sql';
import { DEFAULT_FIND_LIMIT, MIN_FIND_LENGTH, snippetOf, type EventHit, type EventSearchRequest } from '../../session-service/search';
import type { Dialect } from './dialect';
import { toNumber } from './dialect';
import { matchingDocs } from './search-docs';

interface EventRow {
  user_id: string;
  id: string;
  seq: unknown;
  author: string;
  timestamp: unknown;
}

/**
 * The found docs' events, each read through its session's key and the
 * event's (session, seq) key: the docs as a VALUES list joined in that order
 * (SQLite's CROSS JOIN keeps the order it is written in). An OR of the triples
 * instead made SQLite read every session of the app and every event of each.
 */
export function eventRowsSql(dialect: Dialect, appName: string, docs: { user_id: string; session_id: string; key: string }[]): Sql {
  const wanted = join(docs.map((doc) => sql`(${doc.user_id}, ${doc.session_id}, CAST(${Number(doc.key)} AS INTEGER))`));
  const then = raw(dialect === 'sqlite' ? 'CROSS JOIN' : 'JOIN');
  return sql`WITH w (user_id, id, seq) AS (VALUES ${wanted})
    SELECT s.user_id, s.id, e.seq, e.author, e.timestamp
    FROM w ${then} sessions s ON s.app_name = ${appName} AND s.user_id = w.user_id AND s.id = w.id
      ${then} events e ON e.session_pk = s.pk AND e.seq = w.seq`;
}

/** Events of the app whose text contains the request's, newest first among those the index gives. */
export async function searchEventDocs(tx: SqlExecutor, dialect: Dialect, request: EventSearchRequest): Promise<EventHit[]> {
  const text = request.text.trim();
  if (text.length < MIN_FIND_LENGTH) return [];
  const docs = await matchingDocs(tx, dialect, 'native', ['event'], text, request.limit ?? DEFAULT_FIND_LIMIT, request.appName);
  if (docs.length === 0) return [];
  const rows = await tx.$queryRaw<EventRow[]>(eventRowsSql(dialect, request.appName, docs));
  const bodies = new Map(docs.map((doc) => [JSON.stringify([doc.user_id, doc.session_id, Number(doc.key)]), doc.body]));
  return rows
    .map((row) => {
      const seq = toNumber(row.seq);
      return {
        userId: row.user_id,
        sessionId: row.id,
        seq,
        author: row.author,
        timestamp: toNumber(row.timestamp),
        snippet: snippetOf(bodies.get(JSON.stringify([row.user_id, row.id, seq])) ?? '', text),
      };
    })
    .sort((a, b) => b.timestamp - a.timestamp || b.seq - a.seq);
}
