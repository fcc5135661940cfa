// Every row of every table of an agent's database, in a stable order: two
// dumps are equal when nothing was written.
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { FixtureTarget } from './registry';

/** Rows in a stable order whatever order the database returns them in. */
function sorted(rows: unknown[]): unknown[] {
  return rows
    .map((row) => JSON.stringify(row))
    .sort()
    .map((text) => JSON.parse(text) as unknown);
}

export async function dumpAgentDatabase(location: FixtureTarget): Promise<Record<string, unknown[]>> {
  const dump: Record<string, unknown[]> = {};
  if ('mysqlUrl' in location) return dumpMysql(location.mysqlUrl);
  if ('sqlitePath' in location) {
    const db = new Database(location.sqlitePath, { readonly: true, fileMustExist: true });
    try {
      const tables = db.prepare('SELECT name, sql FROM sqlite_master ORDER BY name').all() as { name: string; sql: string | null }[];
      dump.__schema = tables;
      for (const { name } of tables) {
        if (name.startsWith('sqlite_')) continue;
        const isTable = (db.prepare('SELECT type FROM sqlite_master WHERE name = ?').get(name) as { type: string }).type === 'table';
        if (isTable) dump[name] = sorted(db.prepare(`SELECT * FROM "${name}"`).all());
      }
    } finally {
      db.close();
    }
    return dump;
  }
  const client = new pg.Client({ connectionString: location.postgresUrl });
  await client.connect();
  try {
    const tables = (await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`))
      .rows as {
      table_name: string;
    }[];
    dump.__schema = (
      await client.query(
        `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY 1, 2`,
      )
    ).rows;
    dump.__indexes = (await client.query(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY 1`)).rows;
    dump.__triggers = (await client.query(`SELECT tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1`)).rows;
    for (const { table_name: name } of tables) dump[name] = sorted((await client.query(`SELECT * FROM "${name}"`)).rows);
  } finally {
    await client.end();
  }
  return dump;
}

/** Every table's rows (times as the server's text), columns with their types, indexes and triggers. */
async function dumpMysql(url: string): Promise<Record<string, unknown[]>> {
  const dump: Record<string, unknown[]> = {};
  const connection = await mysql.createConnection({ uri: url, dateStrings: true });
  try {
    const all = async (sql: string) => (await connection.query(sql))[0] as Record<string, unknown>[];
    dump.__schema = await all(
      `SELECT table_name, column_name, column_type FROM information_schema.columns WHERE table_schema = DATABASE() ORDER BY 1, 2`,
    );
    dump.__indexes = await all(
      `SELECT table_name, index_name, column_name FROM information_schema.statistics WHERE table_schema = DATABASE() ORDER BY 1, 2, 3`,
    );
    dump.__triggers = await all(`SELECT trigger_name FROM information_schema.triggers WHERE trigger_schema = DATABASE() ORDER BY 1`);
    const tables = await all(`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY 1`);
    for (const { t } of tables) dump[String(t)] = sorted(await all(`SELECT * FROM \`${String(t)}\``));
  } finally {
    await connection.end();
  }
  return dump;
}
