// The SearchIndex on Statehouse's own database: an agent store's session ids
// and state values as search_docs rows under the store's id (beside the
// titles, labels and notes the triggers keep there), what each session was
// indexed at (store_search_sessions), and how far the fill has gone
// (store_search_progress).
import { join, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import type { SqlClient, SqlExecutor } from '../../db/sql';
import type { FindHit } from '../../session-service/search';
import { claimLease, releaseLease, renewLeaseOrThrow, type LeaseHolder } from '../leases';
import { findDocs, matchingDocs } from '../native/search-docs';
import { boundLimit, type Dialect } from '../native/dialect';
import {
  keyText,
  type EventDoc,
  type FillCursor,
  type IndexedMark,
  type IndexedSession,
  type IndexKind,
  type IndexProgress,
  type SearchIndex,
  type SessionKey,
} from './base/search-index';

/** Rows per INSERT: seven parameters each, well inside SQLite's 32,766. */
const ROWS_PER_STATEMENT = 500;

/** The kinds the index writes whole for a session; events are written from a place on; titles, labels and notes (meta, note) are the triggers'. */
const OWN_KINDS = sql`('session', 'state')`;
const ALL_OWN_KINDS = sql`('session', 'state', 'event')`;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The lease on following one store, among the servers sharing this database. */
function leaseName(storeId: string): string {
  return `search-follower:${storeId}`;
}

function keyTuples(keys: SessionKey[]): Sql {
  return join(keys.map(([app, user, id]) => sql`(${app}, ${user}, ${id})`));
}

interface ProgressRow {
  source: string;
  cursor: string | null;
  filled: unknown;
  watermark: unknown;
  events_after: unknown;
}

export class StoreSearchIndex implements SearchIndex {
  constructor(
    private readonly client: SqlClient,
    private readonly dialect: Dialect,
  ) {}

  claim(storeId: string, lease: LeaseHolder): Promise<boolean> {
    return claimLease(this.client, this.dialect, leaseName(storeId), lease);
  }

  release(storeId: string, holder: string): Promise<void> {
    return releaseLease(this.client, leaseName(storeId), holder);
  }

  async progress(storeId: string): Promise<IndexProgress | null> {
    const rows = await this.client.$queryRaw<ProgressRow[]>(
      sql`SELECT source, cursor, filled, watermark, events_after FROM store_search_progress WHERE store_id = ${storeId}`,
    );
    const row = rows[0];
    if (!row) return null;
    return {
      source: row.source,
      cursor: row.cursor === null ? null : (JSON.parse(row.cursor) as FillCursor),
      filled: Number(row.filled) === 1,
      watermark: Number(row.watermark),
      eventsAfter: row.events_after === null || row.events_after === undefined ? null : Number(row.events_after),
    };
  }

  async reset(storeId: string, progress: IndexProgress, lease: LeaseHolder): Promise<void> {
    await this.client.$transaction(async (tx) => {
      await renewLeaseOrThrow(tx, this.dialect, leaseName(storeId), lease);
      await tx.$executeRaw(sql`DELETE FROM search_docs WHERE store_id = ${storeId} AND kind IN ${ALL_OWN_KINDS}`);
      await tx.$executeRaw(sql`DELETE FROM store_search_sessions WHERE store_id = ${storeId}`);
      await this.saveProgress(tx, storeId, progress);
    });
  }

  async count(storeId: string): Promise<number> {
    const rows = await this.client.$queryRaw<{ n: unknown }[]>(
      sql`SELECT COUNT(*) AS n FROM store_search_sessions WHERE store_id = ${storeId}`,
    );
    return Number(rows[0]?.n ?? 0);
  }

  async markers(storeId: string, keys: SessionKey[]): Promise<Map<string, IndexedMark>> {
    const found = new Map<string, IndexedMark>();
    for (const part of chunks(keys, ROWS_PER_STATEMENT)) {
      const rows = await this.client.$queryRaw<
        { app_name: string; user_id: string; session_id: string; marker: string; events: unknown }[]
      >(
        sql`SELECT app_name, user_id, session_id, marker, events FROM store_search_sessions
            WHERE store_id = ${storeId} AND (app_name, user_id, session_id) IN (VALUES ${keyTuples(part)})`,
      );
      for (const row of rows) {
        found.set(keyText([row.app_name, row.user_id, row.session_id]), { marker: row.marker, events: Number(row.events) });
      }
    }
    return found;
  }

  async eventBody(storeId: string, [app, user, id]: SessionKey, seq: number): Promise<string | null> {
    const rows = await this.client.$queryRaw<{ body: string }[]>(
      sql`SELECT body FROM search_docs WHERE store_id = ${storeId} AND app_name = ${app} AND user_id = ${user} AND session_id = ${id}
          AND kind = 'event' AND key = ${String(seq)}`,
    );
    return rows[0]?.body ?? null;
  }

  async keysAfter(storeId: string, after: SessionKey | null, limit: number): Promise<SessionKey[]> {
    const from = after ? sql` AND (app_name, user_id, session_id) > (${after[0]}, ${after[1]}, ${after[2]})` : sql``;
    const rows = await this.client.$queryRaw<{ app_name: string; user_id: string; session_id: string }[]>(
      sql`SELECT app_name, user_id, session_id FROM store_search_sessions WHERE store_id = ${storeId}${from}
          ORDER BY app_name, user_id, session_id LIMIT ${boundLimit(limit)}`,
    );
    return rows.map((row) => [row.app_name, row.user_id, row.session_id]);
  }

  async write(
    storeId: string,
    change: { upsert?: IndexedSession[]; remove?: SessionKey[]; progress?: IndexProgress },
    lease: LeaseHolder,
  ): Promise<void> {
    const upsert = change.upsert ?? [];
    const removed = change.remove ?? [];
    const gone = [...removed, ...upsert.map((session) => session.key)];
    await this.client.$transaction(async (tx) => {
      await renewLeaseOrThrow(tx, this.dialect, leaseName(storeId), lease);
      for (const part of chunks(gone, ROWS_PER_STATEMENT)) {
        const tuples = keyTuples(part);
        await tx.$executeRaw(
          sql`DELETE FROM search_docs WHERE store_id = ${storeId} AND kind IN ${OWN_KINDS}
              AND (app_name, user_id, session_id) IN (VALUES ${tuples})`,
        );
        await tx.$executeRaw(
          sql`DELETE FROM store_search_sessions WHERE store_id = ${storeId} AND (app_name, user_id, session_id) IN (VALUES ${tuples})`,
        );
      }
      // Events are followed from a place on: an append adds docs; a session indexed anew (from 0) or removed loses them all.
      const eventsAnew = [...removed, ...upsert.filter((session) => session.events.from === 0).map((session) => session.key)];
      for (const part of chunks(eventsAnew, ROWS_PER_STATEMENT)) {
        await tx.$executeRaw(
          sql`DELETE FROM search_docs WHERE store_id = ${storeId} AND kind = 'event'
              AND (app_name, user_id, session_id) IN (VALUES ${keyTuples(part)})`,
        );
      }
      for (const { key, events } of upsert.filter((session) => session.events.from > 0)) {
        const [app, user, id] = key;
        await tx.$executeRaw(
          sql`DELETE FROM search_docs WHERE store_id = ${storeId} AND kind = 'event' AND app_name = ${app} AND user_id = ${user}
              AND session_id = ${id} AND CAST(key AS INTEGER) > ${events.from}`,
        );
      }
      const docs = upsert.flatMap(({ key: [app, user, id], values, events }) => [
        sql`(${storeId}, 'session', ${app}, ${user}, ${id}, '', ${`${user} ${id}`})`,
        ...values.map((value) => sql`(${storeId}, 'state', ${app}, ${user}, ${id}, ${value.key}, ${value.body})`),
        ...events.docs.map((event) => sql`(${storeId}, 'event', ${app}, ${user}, ${id}, ${String(event.seq)}, ${event.body})`),
      ]);
      for (const part of chunks(docs, ROWS_PER_STATEMENT)) {
        await tx.$executeRaw(sql`INSERT INTO search_docs (store_id, kind, app_name, user_id, session_id, key, body) VALUES ${join(part)}`);
      }
      for (const part of chunks(upsert, ROWS_PER_STATEMENT)) {
        await tx.$executeRaw(
          sql`INSERT INTO store_search_sessions (store_id, app_name, user_id, session_id, marker, events)
              VALUES ${join(part.map(({ key: [app, user, id], marker, events }) => sql`(${storeId}, ${app}, ${user}, ${id}, ${marker}, ${events.count})`))}`,
        );
      }
      if (change.progress) await this.saveProgress(tx, storeId, change.progress);
    });
  }

  async find(storeId: string, request: { text: string; limit: number; appName?: string; kinds: readonly IndexKind[] }): Promise<FindHit[]> {
    const { text, limit, appName, kinds } = request;
    const result = await findDocs(
      this.client,
      this.dialect,
      storeId,
      { text, limit, ...(appName === undefined ? {} : { appName }) },
      kinds,
    );
    return result.hits;
  }

  async findEvents(storeId: string, request: { text: string; limit: number; appName: string }): Promise<EventDoc[]> {
    const docs = await matchingDocs(this.client, this.dialect, storeId, ['event'], request.text, request.limit, request.appName);
    return docs.map((doc) => ({ userId: doc.user_id, sessionId: doc.session_id, seq: Number(doc.key), body: doc.body }));
  }

  private async saveProgress(tx: SqlExecutor, storeId: string, progress: IndexProgress): Promise<void> {
    const cursor = progress.cursor === null ? null : JSON.stringify(progress.cursor);
    await tx.$executeRaw(
      sql`INSERT INTO store_search_progress (store_id, source, cursor, filled, watermark, events_after, update_time)
          VALUES (${storeId}, ${progress.source}, ${cursor}, ${progress.filled ? 1 : 0}, ${progress.watermark}, ${progress.eventsAfter},
            ${Date.now() / 1000})
          ON CONFLICT (store_id) DO UPDATE SET source = excluded.source, cursor = excluded.cursor, filled = excluded.filled,
            watermark = excluded.watermark, events_after = excluded.events_after, update_time = excluded.update_time`,
    );
  }
}
