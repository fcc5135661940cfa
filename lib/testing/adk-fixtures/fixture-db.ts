// A plain connection to a fixture's new database, for writers that issue an
// ADK's own statements (`?` placeholders on every engine; PostgreSQL's are
// numbered here). Bytes are bound as Buffers, as the ADK's drivers bind them.
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';

/** Where a fixture is written: a new SQLite file, or an empty PostgreSQL or MySQL/MariaDB database. */
export type FixtureTarget = { sqlitePath: string } | { postgresUrl: string } | { mysqlUrl: string };

export type FixtureParam = string | number | null | Buffer;

export interface FixtureDb {
  readonly dialect: 'sqlite' | 'postgresql' | 'mysql';
  run(sql: string, params?: FixtureParam[]): Promise<void>;
  one(sql: string, params?: FixtureParam[]): Promise<Record<string, unknown> | undefined>;
  /** Rows as the driver returns them (times as the server's text on MySQL and PostgreSQL). */
  all(sql: string, params?: FixtureParam[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export async function openFixtureDb(target: FixtureTarget): Promise<FixtureDb> {
  if ('mysqlUrl' in target) {
    const connection = await mysql.createConnection({ uri: target.mysqlUrl, dateStrings: true });
    const all = async (sql: string, params: FixtureParam[] = []) => (await connection.query(sql, params))[0] as Record<string, unknown>[];
    return {
      dialect: 'mysql',
      run: async (sql, params = []) => void (await connection.query(sql, params)),
      one: async (sql, params = []) => (await all(sql, params))[0],
      all,
      close: () => connection.end(),
    };
  }
  if ('sqlitePath' in target) {
    const db = new Database(target.sqlitePath);
    db.pragma('foreign_keys = ON');
    return {
      dialect: 'sqlite',
      run: async (sql, params = []) => void db.prepare(sql).run(...params),
      one: async (sql, params = []) => db.prepare(sql).get(...params) as Record<string, unknown> | undefined,
      all: async (sql, params = []) => db.prepare(sql).all(...params) as Record<string, unknown>[],
      close: async () => {
        db.close();
      },
    };
  }
  const client = new pg.Client({
    connectionString: target.postgresUrl,
    types: { getTypeParser: (oid: number) => (oid === 1114 || oid === 1184 ? (v: string) => v : pg.types.getTypeParser(oid)) } as never,
  });
  await client.connect();
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    dialect: 'postgresql',
    run: async (sql, params = []) => void (await client.query(numbered(sql), params)),
    one: async (sql, params = []) => (await client.query(numbered(sql), params)).rows[0] as Record<string, unknown> | undefined,
    all: async (sql, params = []) => (await client.query(numbered(sql), params)).rows as Record<string, unknown>[],
    close: () => client.end(),
  };
}
