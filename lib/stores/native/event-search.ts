// The app-wide search of events on Statehouse's own tables: the event docs
// the search_index migration's triggers keep (parts' text, tool names, error
// code and message), found through the text index, with each event's author
// and time read by its primary key.
import { join, sqltag as sql } from '@prisma/client/runtime/client';
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

/** Events of the app whose text contains the request's, newest first among those the index gives. */
export async function searchEventDocs(tx: SqlExecutor, dialect: Dialect, request: EventSearchRequest): Promise<EventHit[]> {
  const text = request.text.trim();
  if (text.length < MIN_FIND_LENGTH) return [];
  const docs = await matchingDocs(tx, dialect, 'native', ['event'], text, request.limit ?? DEFAULT_FIND_LIMIT, request.appName);
  if (docs.length === 0) return [];
  const wanted = join(
    docs.map((doc) => sql`(s.user_id = ${doc.user_id} AND s.id = ${doc.session_id} AND e.seq = ${Number(doc.key)})`),
    ' OR ',
  );
  const rows = await tx.$queryRaw<EventRow[]>(
    sql`SELECT s.user_id, s.id, e.seq, e.author, e.timestamp FROM events e JOIN sessions s ON s.pk = e.session_pk
        WHERE s.app_name = ${request.appName} AND (${wanted})`,
  );
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
