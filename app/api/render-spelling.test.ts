// /api/render over a stored session renders a Python float as Python does
// (`2.0`, `100.0`) when the store holds the state as JSON text: the number's
// spelling is read from that text, since the parsed value has lost it.
import { describe, expect, it } from 'vitest';
import { openAgentDb } from '@/lib/stores/adk/agent-db';
import { call } from '@/lib/testing/http';
import { APP, fixtureLabel, type AdkFixtureKind } from '@/lib/testing/adk-fixtures';
import { layoutOf } from '@/lib/testing/adk-fixtures/hostile';
import { useSpoiledAdkStore } from '@/lib/testing/adk-fixtures/spoiled-store';
import { testProviders } from '@/lib/testing/databases';
import { mysqlAvailable } from '@/lib/testing/mysql';
import * as render from './render/route';

const kinds: AdkFixtureKind[] = [
  { family: 'py-sqlite' },
  { family: 'py-db', dialect: 'sqlite', clock: 'utc' },
  { family: 'adk-js', dialect: 'sqlite' },
  { family: 'adk-go', dialect: 'sqlite' },
  { family: 'adk-rust', dialect: 'sqlite' },
];
if ((await testProviders()).includes('postgresql')) {
  kinds.push(
    { family: 'py-db', dialect: 'postgresql', clock: 'utc' },
    { family: 'adk-js', dialect: 'postgresql' },
    { family: 'adk-go', dialect: 'postgresql' },
    { family: 'adk-rust', dialect: 'postgresql' },
  );
}
if (await mysqlAvailable()) {
  kinds.push({ family: 'py-db', dialect: 'mysql', clock: 'utc' }, { family: 'adk-go', dialect: 'mysql' });
}

/**
 * Every family's PostgreSQL blobs are jsonb, read as the server's text: jsonb
 * keeps a number's digits (numeric: `2.0` stays `2.0`) but not an exponent
 * (`1e2` comes back `100`), so a Python agent reading it gets the int 100 too.
 * Text columns (SQLite; LONGTEXT on MySQL/MariaDB) give back the text as written.
 */
const isJsonb = (kind: AdkFixtureKind) => 'dialect' in kind && kind.dialect === 'postgresql';

const TEMPLATE = '{f} {e} {l} {i} {app:bookings} {user:home_city}';
const session = { appName: APP, userId: 'alice', sessionId: 'trip-paris' };

describe.each(kinds.map((kind) => [fixtureLabel(kind), kind] as const))('/api/render over %s', (_label, kind) => {
  // The blobs as an adk-python agent's json.dumps writes floats.
  useSpoiledAdkStore(
    kind,
    async (written) => {
      const { sessions: s, appStates: a } = layoutOf(kind);
      const db = await openAgentDb(written.locator);
      try {
        await db.run(`UPDATE "${s.table}" SET "${s.state}" = ? WHERE "${s.appName}" = ? AND "${s.userId}" = ? AND "${s.id}" = ?`, [
          '{"f": 2.0, "e": 1e2, "l": [1.0, 2], "i": 2}',
          APP,
          session.userId,
          session.sessionId,
        ]);
        await db.run(`UPDATE "${a.table}" SET "${a.state}" = ? WHERE "${a.appName}" = ?`, ['{"bookings": 3.0}', APP]);
      } finally {
        await db.close();
      }
    },
    { serve: true },
  );

  it('keeps the stored spelling of numbers in the python dialect', async () => {
    const python = await call(render.POST, 'POST', { body: { template: TEMPLATE, session } });
    const e = isJsonb(kind) ? '100' : '100.0';
    expect(python.json).toMatchObject({ text: `2.0 ${e} [1.0, 2] 2 3.0 Munich`, error: null });
    const typescript = await call(render.POST, 'POST', { body: { template: TEMPLATE, session, dialect: 'typescript' } });
    expect(typescript.json).toMatchObject({ text: '2 100 [1,2] 2 3 Munich' });
  });
});
