// /api/render over a stored session renders a Python float as Python does
// (`2.0`, `100.0`) when the store holds the state as JSON text: the number's
// spelling is read from that text, since the parsed value has lost it.
import { describe, expect, it } from 'vitest';
import { openAgentDb } from '@/lib/stores/adk/agent-db';
import { call } from '@/lib/testing/http';
import { APP, fixtureLabel, type AdkFixtureKind } from '@/lib/testing/adk-fixtures';
import { layoutOf } from '@/lib/testing/adk-fixtures/hostile';
import { useSpoiledAdkStore } from '@/lib/testing/adk-fixtures/spoiled-store';
import * as render from './render/route';

/** Families whose state blobs are JSON text on SQLite. */
const kinds: AdkFixtureKind[] = [
  { family: 'py-sqlite' },
  { family: 'py-db', dialect: 'sqlite', clock: 'utc' },
  { family: 'adk-js', dialect: 'sqlite' },
  { family: 'adk-go', dialect: 'sqlite' },
];

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
    expect(python.json).toMatchObject({ text: '2.0 100.0 [1.0, 2] 2 3.0 Munich', error: null });
    const typescript = await call(render.POST, 'POST', { body: { template: TEMPLATE, session, dialect: 'typescript' } });
    expect(typescript.json).toMatchObject({ text: '2 100 [1,2] 2 3 Munich' });
  });
});
