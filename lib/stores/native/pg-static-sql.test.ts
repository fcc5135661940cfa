// PL/pgSQL keeps the plan of a static statement for the connection's life,
// but parses and plans an EXECUTE on every call. statehouse_write_tier once
// built its tier statements with format() and ran them with EXECUTE: about
// 1.1 ms of a 1.6 ms session create on the server, three tier calls per
// create or append. No function of the schema, and so none a write runs
// (the write functions and every trigger), builds its SQL at run time.
import { sqltag as sql } from '@prisma/client/runtime/client';
import { describe, expect, it } from 'vitest';
import { testProviders } from '../../testing/databases';
import { useTestDatabase } from '../../testing/use-test-database';

const providers = await testProviders();

/** The body without its comments, which may name EXECUTE to say why it is not used. */
function withoutComments(body: string): string {
  return body.replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');
}

describe.skipIf(!providers.includes('postgresql'))('the PL/pgSQL functions (PostgreSQL)', () => {
  const database = useTestDatabase('postgresql');

  it('run only static statements, whose plans PL/pgSQL keeps', async () => {
    const functions = await database.db.client.$queryRaw<{ name: string; body: string }[]>(
      sql`SELECT p.proname AS name, p.prosrc AS body FROM pg_proc p
          JOIN pg_language l ON l.oid = p.prolang JOIN pg_namespace n ON n.oid = p.pronamespace
          WHERE l.lanname = 'plpgsql' AND n.nspname = current_schema()`,
    );
    const names = functions.map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['statehouse_write_tier', 'statehouse_append', 'statehouse_create']));
    const dynamic = functions.filter((f) => /\bEXECUTE\b/i.test(withoutComments(f.body))).map((f) => f.name);
    expect(dynamic).toEqual([]);
  });
});
