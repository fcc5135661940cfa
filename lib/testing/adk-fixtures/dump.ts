// Every row of every table of an agent's database, in a stable order: two
// dumps are equal when nothing was written.
import Database from 'better-sqlite3';
import pg from 'pg';

/** Rows in a stable order whatever order the database returns them in. */
function sorted(rows: unknown[]): unknown[] {
  return rows
    .map((row) => JSON.stringify(row))
    .sort()
    .map((text) => JSON.parse(text) as unknown);
}

export async function dumpAgentDatabase(location: { sqlitePath: string } | { postgresUrl: string }): Promise<Record<string, unknown[]>> {
  const dump: Record<string, unknown[]> = {};
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
