// The migration that makes event ids unique per session, on a database that
// already stored an id twice (appends retried before it): nothing is lost or
// rewritten, the first keeps the id for retries, repeats are numbered.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sqliteFilePath, type Provider } from '../db';
import { createMigratedDatabase, queryPostgres, testProviders } from '../testing/databases';
import { migrationsDirectory } from './index';

const providers = await testProviders();
const MIGRATION = '20261125003807_event_ids_unique';

async function run(provider: Provider, url: string, script: string): Promise<void> {
  if (provider === 'postgresql') {
    await queryPostgres(url, script);
    return;
  }
  const db = new BetterSqlite3(sqliteFilePath(url));
  try {
    db.exec(script);
  } finally {
    db.close();
  }
}

async function rows<T>(provider: Provider, url: string, query: string): Promise<T[]> {
  if (provider === 'postgresql') return (await queryPostgres(url, query)) as T[];
  const db = new BetterSqlite3(sqliteFilePath(url));
  try {
    return db.prepare(query).all() as T[];
  } finally {
    db.close();
  }
}

describe.each(providers)('event ids made unique on %s', (provider) => {
  it('keeps every stored event, numbering the repeats of an id', async () => {
    const database = await createMigratedDatabase(provider, 'eventids');
    try {
      // The events table as it was before the migration, with one id stored twice.
      await run(
        provider,
        database.url,
        `DROP INDEX "events_session_pk_id_id_repeat_key";
         ALTER TABLE "events" DROP COLUMN "id_repeat";
         CREATE INDEX "events_session_pk_id_idx" ON "events"("session_pk", "id");
         INSERT INTO "sessions" ("app_name", "user_id", "id", "revision", "last_seq", "create_time", "update_time") VALUES ('a', 'u', 's', 3, 3, 1, 1);
         INSERT INTO "events" ("session_pk", "seq", "id", "invocation_id", "author", "timestamp", "data")
           SELECT "pk", 1, 'x', 'i', 'agent', 1, '{"id":"x"}' FROM "sessions" UNION ALL
           SELECT "pk", 2, 'x', 'i', 'agent', 2, '{"id":"x"}' FROM "sessions" UNION ALL
           SELECT "pk", 3, 'y', 'i', 'agent', 3, '{"id":"y"}' FROM "sessions";`,
      );
      const script = readFileSync(join(migrationsDirectory(provider), MIGRATION, 'migration.sql'), 'utf8');
      await run(provider, database.url, script);

      const events = await rows<{ seq: number; id: string; id_repeat: number; data: string }>(
        provider,
        database.url,
        `SELECT "seq", "id", "id_repeat", "data" FROM "events" ORDER BY "seq"`,
      );
      expect(events.map((event) => ({ ...event, seq: Number(event.seq), id_repeat: Number(event.id_repeat) }))).toEqual([
        { seq: 1, id: 'x', id_repeat: 0, data: '{"id":"x"}' },
        { seq: 2, id: 'x', id_repeat: 2, data: '{"id":"x"}' },
        { seq: 3, id: 'y', id_repeat: 0, data: '{"id":"y"}' },
      ]);
      await expect(
        run(
          provider,
          database.url,
          `INSERT INTO "events" ("session_pk", "seq", "id", "invocation_id", "author", "timestamp", "data")
          SELECT "pk", 4, 'x', 'i', 'agent', 4, '{}' FROM "sessions"`,
        ),
      ).rejects.toThrow(/unique|UNIQUE/);
    } finally {
      await database.remove();
    }
  });
});
