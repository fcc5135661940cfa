// The MySQL/MariaDB test server (adk-python's DatabaseSessionService on
// MySQL): scratch databases for the fixtures, made and dropped per test file.
import mysql from 'mysql2/promise';

/** Server used for MySQL/MariaDB tests (`.ci/run` starts MariaDB here). */
export const MYSQL_ADMIN_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';

async function mysqlReachable(): Promise<boolean> {
  try {
    const connection = await mysql.createConnection({ uri: MYSQL_ADMIN_URL, connectTimeout: 3000 });
    await connection.end();
    return true;
  } catch {
    return false;
  }
}

/** Whether MySQL tests run: skipped only on a developer machine without a server; in CI its absence fails the run. */
export async function mysqlAvailable(): Promise<boolean> {
  if (await mysqlReachable()) return true;
  if (process.env.CI) throw new Error(`MySQL/MariaDB is not reachable at ${MYSQL_ADMIN_URL}; CI must run its tests.`);
  console.warn(`MySQL/MariaDB is not reachable at ${MYSQL_ADMIN_URL}: its tests are skipped on this machine.`);
  return false;
}

/** One statement on the admin connection (CREATE/DROP DATABASE). */
export async function mysqlAdmin(sql: string): Promise<void> {
  const connection = await mysql.createConnection({ uri: MYSQL_ADMIN_URL });
  try {
    await connection.query(sql);
  } finally {
    await connection.end();
  }
}

/** An empty database named after `label`, and how to drop it again. */
export async function createMysqlScratchDatabase(label: string): Promise<{ url: string; remove: () => Promise<void> }> {
  const name = `statehouse_${label}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await mysqlAdmin(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  const url = new URL(MYSQL_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), remove: () => mysqlAdmin(`DROP DATABASE IF EXISTS \`${name}\``) };
}
