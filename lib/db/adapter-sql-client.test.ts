import { clearLogs, getLogs } from '@prisma/debug';
import { sqltag as sql } from '@prisma/client/runtime/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from './adapter-errors';
import { openDatabase, type Database } from '.';
import { prepared } from './prepared';
import { createScratchDatabase, testProviders, type ScratchDatabase } from '../testing/databases';

const providers = (await testProviders()).filter((provider) => provider === 'postgresql');

describe.skipIf(providers.length === 0)('the SqlClient on the PostgreSQL adapter', () => {
  let scratch: ScratchDatabase;
  let db: Database;

  beforeAll(async () => {
    scratch = await createScratchDatabase('postgresql', 'adapter');
    db = await openDatabase(scratch.url);
    await db.client.$executeRaw`CREATE TABLE t (id TEXT PRIMARY KEY, n BIGINT, x DOUBLE PRECISION)`;
  });

  afterAll(async () => {
    await db?.close();
    await scratch?.remove();
  });

  it('keeps no statement or argument in Prisma’s debug history (its last 100 calls, kept alive whatever DEBUG says)', async () => {
    clearLogs();
    const marker = `kept-${Math.random().toString(36).slice(2)}`;
    await db.client.$queryRaw`SELECT CAST(${marker} AS TEXT) AS v`;
    await db.client.$executeRaw`INSERT INTO t (id, n, x) VALUES (${marker}, 1, 0.5)`;
    await db.client.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM t WHERE id = ${marker}`;
      await tx.$executeRaw`UPDATE t SET n = n + 1 WHERE id = ${marker}`;
    });
    expect(getLogs()).not.toContain(marker);
  });

  it('answers rows as objects with the adapter’s value types, and the rows a write changed', async () => {
    await db.client.$executeRaw`INSERT INTO t (id, n, x) VALUES ('a', 9007199254740993, 1.25), ('b', NULL, NULL)`;
    const rows = await db.client.$queryRaw<
      { id: string; n: unknown; x: unknown }[]
    >`SELECT id, n, x FROM t WHERE id IN ('a', 'b') ORDER BY id`;
    // int8 as text (beyond a double's integers), float8 as a number: the adapter's parsers.
    expect(rows).toEqual([
      { id: 'a', n: '9007199254740993', x: 1.25 },
      { id: 'b', n: null, x: null },
    ]);
    expect(await db.client.$executeRaw`UPDATE t SET x = 2 WHERE id IN ('a', 'b')`).toBe(2);
  });

  it('reports a refused row as the adapter’s error kind, with a readable message', async () => {
    const error = await db.client.$executeRaw`INSERT INTO t (id) VALUES ('a')`.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(isUniqueViolation(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'DatabaseError',
      cause: { name: 'DriverAdapterError', cause: { kind: 'UniqueConstraintViolation' } },
    });
  });

  it('prepares a marked statement once per connection, by one name, and sends the rest unnamed', async () => {
    const names = await db.client.$transaction(async (tx) => {
      for (const value of ['a', 'b']) await tx.$queryRaw(prepared(sql`SELECT CAST(${value} AS TEXT) AS marked_value`));
      await tx.$queryRaw(sql`SELECT CAST(${'c'} AS TEXT) AS unmarked_value`);
      return tx.$queryRaw<{ name: string; statement: string }[]>`SELECT name, statement FROM pg_prepared_statements`;
    });
    expect(names.filter((row) => row.statement.includes('marked_value'))).toEqual([
      { name: expect.stringMatching(/^statehouse_\d+$/), statement: 'SELECT CAST($1 AS TEXT) AS marked_value' },
    ]);
    expect(names.filter((row) => row.statement.includes('unmarked_value'))).toEqual([]);
  });

  it('drops the connections whose prepared statement changed shape under them (a migration), and works again', async () => {
    await db.client.$executeRaw`CREATE FUNCTION reshaped() RETURNS TABLE (a INTEGER) LANGUAGE sql AS 'SELECT 1'`;
    const call = () => db.client.$transaction(async (tx) => tx.$queryRaw(prepared(sql`SELECT * FROM reshaped()`)));
    expect(await call()).toEqual([{ a: 1 }]);
    await db.client.$executeRaw`DROP FUNCTION reshaped()`;
    await db.client.$executeRaw`CREATE FUNCTION reshaped() RETURNS TABLE (a INTEGER, b INTEGER) LANGUAGE sql AS 'SELECT 1, 2'`;
    await expect(call()).rejects.toThrow(/cached plan must not change result type/);
    expect(await call()).toEqual([{ a: 1, b: 2 }]);
  });
});
