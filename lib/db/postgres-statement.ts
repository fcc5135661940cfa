import pg from 'pg';

/** One statement on its own connection (CREATE/DROP DATABASE cannot run in a transaction); its rows. */
export async function queryPostgres<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}
