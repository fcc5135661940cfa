// The find over search_docs (the text the triggers of the search_index
// migration keep) through the database's own text index: FTS5's trigram
// index on SQLite, pg_trgm's GIN index on PostgreSQL. Any store's docs live
// there under its id; Statehouse's own tables are store 'native'.
import { empty, join, raw, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import type { SqlExecutor } from '../../db/sql';
import {
  DEFAULT_FIND_LIMIT,
  distinctHits,
  MIN_FIND_LENGTH,
  snippetOf,
  type FindHit,
  type FindRequest,
  type FindResult,
} from '../../session-service/search';
import { boundLimit, containsPattern, type Dialect } from './dialect';

/** Docs read per hit wanted: several docs of one session (its id, values, title) make one hit. */
const DOCS_PER_HIT = 5;

interface DocRow {
  kind: string;
  app_name: string;
  user_id: string;
  session_id: string;
  key: string;
  body: string;
}

/** An FTS5 query for `text` as one phrase: with the trigram tokenizer, any substring of three characters or more. */
export function ftsPhrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * The characters PostgreSQL's text index writes as 'q' (migration
 * search_trigrams_across_words): pg_trgm cuts words at them, and so could not
 * tell "about message" from a doc saying "message ... about". Written as a
 * letter, they leave trigrams that span the break ("tqm").
 */
const WORD_BREAK = /[ \t\n\r\-.,:/]/g;
/** The indexed expression, as the indexes are built (the planner matches it by its text). */
const JOINED_BODY = raw(String.raw`translate(lower(d.body), E' \t\n\r-.,:/', 'qqqqqqqqq')`);

/** The LIKE pattern of `text` as the index sees bodies: lower-cased, each word break written as 'q'. */
export function joinedContainsPattern(text: string): string {
  return containsPattern(text.toLowerCase().replace(WORD_BREAK, 'q'));
}

/**
 * PostgreSQL: the docs of `kinds` (all events, or none) whose body contains
 * `text`, case-insensitively; at most `limit`. The index narrows by the
 * mapped text (a body holding the text holds it mapped); the body itself is
 * then tested, so the answer is exactly the substring test's. The kind's
 * literal test picks the index of events or of the other kinds.
 */
export function matchingDocsSql(storeId: string, kinds: readonly string[], text: string, limit: number, appName?: string): Sql {
  const inApp = appName === undefined ? empty : sql` AND d.app_name = ${appName}`;
  const events = kinds.includes('event');
  if (events && kinds.length > 1) throw new Error('Events and other kinds are searched apart.');
  const side = events ? raw(`d.kind = 'event'`) : sql`d.kind <> 'event' AND d.kind IN (${join([...kinds])})`;
  return sql`SELECT d.kind, d.app_name, d.user_id, d.session_id, d.key, d.body FROM search_docs d
    WHERE ${JOINED_BODY} LIKE ${joinedContainsPattern(text)} ESCAPE '\\' AND ${side}
      AND lower(d.body) LIKE ${containsPattern(text)} ESCAPE '\\' AND d.store_id = ${storeId}${inApp}
    LIMIT ${boundLimit(limit)}`;
}

/** Docs of `kinds` whose body contains `text` (case-insensitive), through the text index; at most `limit`. */
export async function matchingDocs(
  tx: SqlExecutor,
  dialect: Dialect,
  storeId: string,
  kinds: readonly string[],
  text: string,
  limit: number,
  appName?: string,
): Promise<DocRow[]> {
  if (dialect === 'sqlite') {
    const inApp = appName === undefined ? empty : sql` AND d.app_name = ${appName}`;
    return tx.$queryRaw<DocRow[]>(
      sql`SELECT d.kind, d.app_name, d.user_id, d.session_id, d.key, d.body
          FROM search_fts JOIN search_docs d ON d.id = search_fts.rowid
          WHERE search_fts MATCH ${ftsPhrase(text)} AND d.store_id = ${storeId} AND d.kind IN (${join([...kinds])})${inApp}
          LIMIT ${boundLimit(limit)}`,
    );
  }
  const events = kinds.filter((kind) => kind === 'event');
  const others = kinds.filter((kind) => kind !== 'event');
  const found: DocRow[] = [];
  for (const side of [others, events]) {
    if (side.length === 0 || found.length >= limit) continue;
    found.push(...(await tx.$queryRaw<DocRow[]>(matchingDocsSql(storeId, side, text, limit - found.length, appName))));
  }
  return found;
}

/** The header search's kinds: ids, state values, titles and labels, notes (events have a search of their own). */
const FIND_KINDS = ['session', 'state', 'meta', 'note'] as const;

/** What a doc says about where the text was found: a session's doc may find its user, the session, or both. */
function hitsOf(row: DocRow, text: string): FindHit[] {
  const needle = text.toLowerCase();
  if (row.kind === 'session') {
    const hits: FindHit[] = [];
    if (row.user_id.toLowerCase().includes(needle)) {
      hits.push({ kind: 'user', appName: row.app_name, userId: row.user_id, matched: 'user id', snippet: row.user_id });
    }
    if (row.session_id.toLowerCase().includes(needle)) {
      hits.push({
        kind: 'session',
        appName: row.app_name,
        userId: row.user_id,
        sessionId: row.session_id,
        matched: 'id',
        snippet: row.session_id,
      });
    }
    return hits;
  }
  return [hitOf(row, text)];
}

function hitOf(row: DocRow, text: string): FindHit {
  const at = { appName: row.app_name, snippet: snippetOf(row.body, text) };
  if (row.kind === 'state') {
    if (row.session_id !== '') return { kind: 'session', ...at, userId: row.user_id, sessionId: row.session_id, matched: row.key };
    if (row.user_id !== '') return { kind: 'user', ...at, userId: row.user_id, matched: `user:${row.key}` };
    return { kind: 'app', ...at, matched: `app:${row.key}` };
  }
  const matched = row.kind === 'meta' ? 'title or labels' : row.kind;
  return { kind: 'session', ...at, userId: row.user_id, sessionId: row.session_id, matched };
}

/** The header search over one store's docs (of `kinds`). Text shorter than the index's trigrams finds nothing here. */
export async function findDocs(
  tx: SqlExecutor,
  dialect: Dialect,
  storeId: string,
  request: FindRequest,
  kinds: readonly string[] = FIND_KINDS,
): Promise<FindResult> {
  const text = request.text.trim();
  const limit = request.limit ?? DEFAULT_FIND_LIMIT;
  if (text.length < MIN_FIND_LENGTH) return { hits: [] };
  const rows = await matchingDocs(tx, dialect, storeId, kinds, text, limit * DOCS_PER_HIT, request.appName);
  return {
    hits: distinctHits(
      rows.flatMap((row) => hitsOf(row, text)),
      limit,
    ),
  };
}
