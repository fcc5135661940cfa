// The NoteStore on Statehouse's own database (table session_notes), for
// every served store alike: an agent's database is never written.
import { join, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import type { SqlClient } from '../../db/sql';
import {
  digestKey,
  type NoteDigest,
  type NoteHistoryQuery,
  type NoteSearch,
  type NoteStore,
  type NoteTarget,
  type SessionNote,
} from '../../session-service/notes';
import type { Page } from '../../session-service/types';
import { boundLimit, chunks, containsFolded, toNumber, toNumberOrNull, type Dialect } from '../native/dialect';

interface NoteRow {
  id: unknown;
  store_id: string;
  app_name: string;
  user_id: string;
  session_id: string;
  author: string;
  text: string;
  time: unknown;
  removed_by: string | null;
  removed_time: unknown;
}

const COLUMNS = sql`id, store_id, app_name, user_id, session_id, author, text, time, removed_by, removed_time`;
const DEFAULT_LIMIT = 50;
/** Sessions per digest statement: four bound values each. */
const DIGEST_BATCH = 200;

function noteOf(row: NoteRow): SessionNote {
  const removedTime = toNumberOrNull(row.removed_time);
  return {
    id: toNumber(row.id),
    storeId: row.store_id,
    appName: row.app_name,
    userId: row.user_id,
    sessionId: row.session_id,
    author: row.author,
    text: row.text,
    time: toNumber(row.time),
    removed: row.removed_by !== null && removedTime !== null ? { by: row.removed_by, time: removedTime } : null,
  };
}

const sessionIs = (target: NoteTarget) =>
  sql`store_id = ${target.storeId} AND app_name = ${target.appName} AND user_id = ${target.userId} AND session_id = ${target.sessionId}`;

export class SqlNoteStore implements NoteStore {
  constructor(
    private readonly client: SqlClient,
    private readonly dialect: Dialect,
  ) {}

  async add(target: NoteTarget, note: { author: string; text: string }, time: number): Promise<SessionNote> {
    const [row] = await this.client.$queryRaw<NoteRow[]>(
      sql`INSERT INTO session_notes (store_id, app_name, user_id, session_id, author, text, time)
          VALUES (${target.storeId}, ${target.appName}, ${target.userId}, ${target.sessionId}, ${note.author}, ${note.text}, ${time})
          RETURNING ${COLUMNS}`,
    );
    if (!row) throw new Error('INSERT … RETURNING gave no row.');
    return noteOf(row);
  }

  async remove(target: NoteTarget, id: number, by: string, time: number): Promise<SessionNote | null> {
    const [row] = await this.client.$queryRaw<NoteRow[]>(
      sql`UPDATE session_notes SET removed_by = ${by}, removed_time = ${time}
          WHERE id = ${id} AND ${sessionIs(target)} AND removed_by IS NULL
          RETURNING ${COLUMNS}`,
    );
    return row ? noteOf(row) : null;
  }

  async list(target: NoteTarget): Promise<SessionNote[]> {
    const rows = await this.client.$queryRaw<NoteRow[]>(
      sql`SELECT ${COLUMNS} FROM session_notes WHERE ${sessionIs(target)} AND removed_by IS NULL ORDER BY id`,
    );
    return rows.map(noteOf);
  }

  async digests(storeId: string, appName: string, sessions: { userId: string; sessionId: string }[]): Promise<Map<string, NoteDigest>> {
    const digests = new Map<string, NoteDigest>();
    for (const batch of chunks(sessions, DIGEST_BATCH)) {
      if (batch.length === 0) continue;
      const pairs = join(
        batch.map((session) => sql`(user_id = ${session.userId} AND session_id = ${session.sessionId})`),
        ' OR ',
      );
      const rows = await this.client.$queryRaw<(NoteRow & { n: unknown })[]>(
        sql`SELECT ${COLUMNS}, (SELECT COUNT(*) FROM session_notes AS other
                               WHERE other.store_id = notes.store_id AND other.app_name = notes.app_name
                                 AND other.user_id = notes.user_id AND other.session_id = notes.session_id
                                 AND other.removed_by IS NULL) AS n
            FROM session_notes AS notes
            WHERE store_id = ${storeId} AND app_name = ${appName} AND removed_by IS NULL AND (${pairs})
              AND id = (SELECT MAX(id) FROM session_notes AS newest
                        WHERE newest.store_id = notes.store_id AND newest.app_name = notes.app_name
                          AND newest.user_id = notes.user_id AND newest.session_id = notes.session_id
                          AND newest.removed_by IS NULL)`,
      );
      for (const row of rows) digests.set(digestKey(row.user_id, row.session_id), { count: toNumber(row.n), latest: noteOf(row) });
    }
    return digests;
  }

  async search(query: NoteSearch): Promise<Page<SessionNote>> {
    const where = join(
      [
        sql`store_id = ${query.storeId}`,
        sql`removed_by IS NULL`,
        sql`(${containsFolded(this.dialect, 'text', query.text)} OR ${containsFolded(this.dialect, 'author', query.text)})`,
        query.appName === undefined ? null : sql`app_name = ${query.appName}`,
      ].filter((part): part is Sql => part !== null),
      ' AND ',
    );
    return this.page(where, sql`id DESC`, query);
  }

  async history(query: NoteHistoryQuery): Promise<Page<SessionNote>> {
    const changed = sql`COALESCE(removed_time, time)`;
    const where = join(
      [
        sql`store_id = ${query.storeId}`,
        query.appName === undefined ? null : sql`app_name = ${query.appName}`,
        query.userId === undefined ? null : sql`user_id = ${query.userId}`,
        query.sessionId === undefined ? null : sql`session_id = ${query.sessionId}`,
        query.actor === undefined ? null : sql`(author = ${query.actor} OR removed_by = ${query.actor})`,
        query.since === undefined ? null : sql`${changed} >= ${query.since}`,
        query.until === undefined ? null : sql`time <= ${query.until}`,
      ].filter((part): part is Sql => part !== null),
      ' AND ',
    );
    return this.page(where, sql`${changed} DESC, id DESC`, query);
  }

  private async page(where: Sql, order: Sql, paging: { limit?: number; offset?: number }): Promise<Page<SessionNote>> {
    const limit = paging.limit ?? DEFAULT_LIMIT;
    const offset = paging.offset ?? 0;
    const [rows, counted] = await Promise.all([
      this.client.$queryRaw<NoteRow[]>(
        sql`SELECT ${COLUMNS} FROM session_notes WHERE ${where} ORDER BY ${order} LIMIT ${boundLimit(limit)} OFFSET ${offset}`,
      ),
      this.client.$queryRaw<{ n: unknown }[]>(sql`SELECT COUNT(*) AS n FROM session_notes WHERE ${where}`),
    ]);
    return { items: rows.map(noteOf), total: toNumber(counted[0]?.n ?? 0) };
  }
}
