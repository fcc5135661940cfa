// The SavedViewStore on Statehouse's own database (table saved_views), for
// every served store alike: views of an agent's lists never touch its database.
import { sqltag as sql } from '@prisma/client/runtime/client';
import { isUniqueViolation } from '../../db/adapter-errors';
import type { SqlClient } from '../../db/sql';
import { SessionServiceError } from '../../session-service/errors';
import { MAX_VIEWS_PER_LIST, type SavedView, type SavedViewStore, type ViewList } from '../../session-service/saved-views';
import { toNumber } from '../native/dialect';

interface ViewRow {
  id: unknown;
  account: string;
  store_id: string;
  app_name: string;
  user_id: string;
  name: string;
  query: string;
  created_time: unknown;
  updated_time: unknown;
}

const COLUMNS = sql`id, account, store_id, app_name, user_id, name, query, created_time, updated_time`;

function viewOf(row: ViewRow): SavedView {
  return {
    id: toNumber(row.id),
    account: row.account,
    storeId: row.store_id,
    appName: row.app_name,
    userId: row.user_id,
    name: row.name,
    query: row.query,
    createdTime: toNumber(row.created_time),
    updatedTime: toNumber(row.updated_time),
  };
}

const listIs = (account: string, list: ViewList) =>
  sql`account = ${account} AND store_id = ${list.storeId} AND app_name = ${list.appName} AND user_id = ${list.userId}`;

const nameTaken = (name: string) => new SessionServiceError('ALREADY_EXISTS', `You already have a view named “${name}” on this list.`);

export class SqlSavedViewStore implements SavedViewStore {
  constructor(private readonly client: SqlClient) {}

  async list(account: string, list: ViewList): Promise<SavedView[]> {
    const rows = await this.client.$queryRaw<ViewRow[]>(
      sql`SELECT ${COLUMNS} FROM saved_views WHERE ${listIs(account, list)} ORDER BY name, id`,
    );
    return rows.map(viewOf);
  }

  async save(account: string, list: ViewList, view: { name: string; query: string }, time: number): Promise<SavedView> {
    const [replaced] = await this.client.$queryRaw<ViewRow[]>(
      sql`UPDATE saved_views SET query = ${view.query}, updated_time = ${time}
          WHERE ${listIs(account, list)} AND name = ${view.name} RETURNING ${COLUMNS}`,
    );
    if (replaced) return viewOf(replaced);
    const [counted] = await this.client.$queryRaw<{ n: unknown }[]>(
      sql`SELECT COUNT(*) AS n FROM saved_views WHERE ${listIs(account, list)}`,
    );
    if (toNumber(counted?.n ?? 0) >= MAX_VIEWS_PER_LIST) {
      throw new SessionServiceError('INVALID_INPUT', `You keep ${MAX_VIEWS_PER_LIST} views on this list already: delete one first.`);
    }
    try {
      const [row] = await this.client.$queryRaw<ViewRow[]>(
        sql`INSERT INTO saved_views (account, store_id, app_name, user_id, name, query, created_time, updated_time)
            VALUES (${account}, ${list.storeId}, ${list.appName}, ${list.userId}, ${view.name}, ${view.query}, ${time}, ${time})
            RETURNING ${COLUMNS}`,
      );
      if (!row) throw new Error('INSERT … RETURNING gave no row.');
      return viewOf(row);
    } catch (error) {
      // Saved under the same name by another tab between the update and the insert.
      if (isUniqueViolation(error)) throw nameTaken(view.name);
      throw error;
    }
  }

  async rename(account: string, id: number, name: string, time: number): Promise<SavedView | null> {
    try {
      const [row] = await this.client.$queryRaw<ViewRow[]>(
        sql`UPDATE saved_views SET name = ${name}, updated_time = ${time} WHERE id = ${id} AND account = ${account} RETURNING ${COLUMNS}`,
      );
      return row ? viewOf(row) : null;
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(name);
      throw error;
    }
  }

  async remove(account: string, id: number): Promise<SavedView | null> {
    const [row] = await this.client.$queryRaw<ViewRow[]>(
      sql`DELETE FROM saved_views WHERE id = ${id} AND account = ${account} RETURNING ${COLUMNS}`,
    );
    return row ? viewOf(row) : null;
  }
}
