/**
 * Database faults for tests that must prove a write is all-or-nothing: a
 * trigger makes the database itself refuse one row midway through a
 * transaction, as a constraint, a full disk or a dropped connection would.
 */
import { randomUUID } from 'node:crypto';
import { raw } from '@prisma/client/runtime/client';
import type { TestDatabase } from './databases';

/** The message the database fails the insert with. */
export const INJECTED_FAILURE = 'injected failure: event insert refused';

/**
 * From now on the database fails any insert of an event with this id (every
 * other statement works). Returns the function that removes the fault.
 */
export async function failEventInsert(database: TestDatabase, eventId: string): Promise<() => Promise<void>> {
  const name = `fail_event_${randomUUID().replaceAll('-', '')}`;
  const id = eventId.replaceAll("'", "''");
  const client = database.db.client;
  if (database.provider === 'sqlite') {
    await client.$executeRaw(
      raw(`CREATE TRIGGER ${name} BEFORE INSERT ON events WHEN NEW.id = '${id}'
           BEGIN SELECT RAISE(ABORT, '${INJECTED_FAILURE}'); END`),
    );
    return async () => void (await client.$executeRaw(raw(`DROP TRIGGER ${name}`)));
  }
  await client.$executeRaw(
    raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION '${INJECTED_FAILURE}'; END $$`),
  );
  await client.$executeRaw(
    raw(`CREATE TRIGGER ${name} BEFORE INSERT ON events FOR EACH ROW WHEN (NEW.id = '${id}') EXECUTE FUNCTION ${name}()`),
  );
  return async () => {
    await client.$executeRaw(raw(`DROP TRIGGER ${name} ON events`));
    await client.$executeRaw(raw(`DROP FUNCTION ${name}()`));
  };
}
