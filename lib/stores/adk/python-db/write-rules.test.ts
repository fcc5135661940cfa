// adk-python's newest write rules, as upstream has them (write-rules.ts):
// `adk migrate` stamps alembic_version with the v1 baseline and changes
// nothing else, so such a store is written as any v1 store; a later
// revision, or the event_sequence version column no release writes, opens
// read-only with the reason, and nothing is written.
import { describe, expect, it } from 'vitest';
import { isSessionServiceError } from '../../../session-service/errors';
import { openAgentDb } from '../agent-db';
import { openAdkStore } from '..';
import { testProviders } from '../../../testing/databases';
import { APP, dumpAgentDatabase } from '../../../testing/adk-fixtures';
import { writeAdkFixture } from '../../../testing/adk-fixtures/stores';
import { ALEMBIC_BASELINE } from './write-rules';

const providers = await testProviders();
const dialects: ('sqlite' | 'postgresql')[] = providers.includes('postgresql') ? ['sqlite', 'postgresql'] : ['sqlite'];
const ref = { appName: APP, userId: 'alice', sessionId: 'trip-paris' };

/** A v1 fixture changed by the statements (as `adk migrate` or another build would have), opened. */
async function storeAfter(dialect: 'sqlite' | 'postgresql', statements: string[]) {
  const written = await writeAdkFixture({ family: 'py-db', dialect, clock: 'utc' });
  const db = await openAgentDb(written.locator);
  try {
    for (const statement of statements) await db.run(statement);
  } finally {
    await db.close();
  }
  const store = await openAdkStore(written.locator);
  return {
    store,
    location: written.location,
    close: async () => {
      await store.close();
      await written.remove();
    },
  };
}

// Alembic's own table (alembic/runtime/migration.py): version_num VARCHAR(32), primary key alembic_version_pkc.
const ALEMBIC_TABLE =
  'CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL, CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num))';

describe.each(dialects)('adk-python v1 write rules on %s', (dialect) => {
  it('writes a store stamped at the Alembic baseline as any v1 store', async () => {
    const opened = await storeAfter(dialect, [ALEMBIC_TABLE, `INSERT INTO alembic_version (version_num) VALUES ('${ALEMBIC_BASELINE}')`]);
    try {
      expect(opened.store.info.readOnlyReason).toBeUndefined();
      expect(opened.store.info.description).toContain(`Alembic revision ${ALEMBIC_BASELINE}`);
      await opened.store.append(ref, { author: 'support', id: 'console', actions: { stateDelta: { nights: 4 } } });
      expect((await opened.store.getSession(ref))?.state.nights).toBe(4);
    } finally {
      await opened.close();
    }
  });

  it('opens read-only at an Alembic revision past the baseline, and writes nothing', async () => {
    const opened = await storeAfter(dialect, [ALEMBIC_TABLE, `INSERT INTO alembic_version (version_num) VALUES ('002_add_something')`]);
    try {
      expect(opened.store.info.readOnlyReason).toMatch(/alembic_version is at 002_add_something/);
      const before = await dumpAgentDatabase(opened.location);
      const refused = await opened.store.append(ref, { author: 'support' }).catch((error: unknown) => error);
      expect(isSessionServiceError(refused) && refused.code).toBe('READ_ONLY');
      expect(await dumpAgentDatabase(opened.location)).toEqual(before);
    } finally {
      await opened.close();
    }
  });

  it('opens read-only with a sessions.event_sequence version column, which no release writes', async () => {
    const opened = await storeAfter(dialect, ['ALTER TABLE sessions ADD COLUMN event_sequence INTEGER NOT NULL DEFAULT 0']);
    try {
      expect(opened.store.info.readOnlyReason).toMatch(/event_sequence column.*#4752/);
      const refused = await opened.store
        .editState({ appName: APP, scope: 'app', changes: { bookings: 9 }, actor: 'ops', reason: 'test' })
        .catch((error: unknown) => error);
      expect(isSessionServiceError(refused) && refused.code).toBe('READ_ONLY');
      expect((await opened.store.getSession(ref))?.state.destination).toBe('Lyon');
    } finally {
      await opened.close();
    }
  });
});
