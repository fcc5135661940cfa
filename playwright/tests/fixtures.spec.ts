// What the fixture leaves after a test in a shared app: the test's users are
// gone, the app keys it seeded are back (through an edit whose history names
// the test), and what it did not write itself (its agent's keys) stays.
import { StatehouseClient, currentRun, expect, test } from '../index.js';

const SHARED_APP = `kit-fixtures-${Date.now().toString(36)}`;
const client = new StatehouseClient();

interface Change {
  actor: string;
  reason: string | null;
  newValue?: unknown;
}

async function history(key: string): Promise<Change[]> {
  const response = await fetch(`${client.baseURL}/api/apps/${SHARED_APP}/history?scope=app&key=${key}`);
  return ((await response.json()) as { items: Change[] }).items;
}

test.describe.configure({ mode: 'serial' });
test.use({ statehouseNamespace: 'user', statehouseApp: SHARED_APP });

test.beforeAll(async () => {
  // This spec makes the shared app itself, so it marks it as the kit's own: afterAll may clear it.
  await client.markNamespace({ appName: SHARED_APP }, currentRun(), 'playwright: fixtures.spec.ts');
  await client.editAppState(SHARED_APP, { set: { mode: 'live' }, reason: 'the app as deployed', actor: 'ops' });
});
test.afterAll(async () => {
  await client.clearApp(SHARED_APP, { reason: 'the spec made this app', actor: 'playwright: fixtures.spec.ts' });
});

test('a test changes shared app state and creates sessions', async ({ statehouse }) => {
  const session = await statehouse.seed({ user: 'ada', state: { 'app:mode': 'test', 'user:name': 'Ada' } });
  expect(session.userId).toMatch(/^ada@pw-w\d+-/);
  // Its agent adds an app key too, and makes a session of its own.
  await statehouse.client.appendEvent(session, { author: 'agent', actions: { stateDelta: { 'app:cache': 1 } } });
  await statehouse.client.createSession({ appName: SHARED_APP, userId: statehouse.userId('ada'), sessionId: 'by-agent' });
  expect((await statehouse.latestSession('ada'))?.sessionId).toBe('by-agent');
  await expect(session).toHaveState({ 'app:mode': 'test', 'app:cache': 1 });
  await statehouse.seed({ user: 'bob', session: false, state: { 'user:plan': 'pro' } });
});

test('afterwards the seeded key is back, through an edit naming that test, the agent’s key stays, and its users are gone', async () => {
  expect(await client.appState(SHARED_APP)).toEqual({ mode: 'live', cache: 1 });
  const [restored, seeded] = await history('mode');
  const actor = 'playwright: fixtures.spec.ts › a test changes shared app state and creates sessions';
  expect(restored).toMatchObject({ actor, reason: 'put back after the test (it still held what the test wrote)', newValue: 'live' });
  expect(seeded).toMatchObject({ actor: 'session:create', newValue: 'test' });
  expect(await history('cache')).toHaveLength(1);

  const users = await fetch(`${client.baseURL}/api/apps/${SHARED_APP}/users`);
  expect(((await users.json()) as { total: number }).total).toBe(0);
});

test('seeding shared tiers without a session is an audited edit by the test', async ({ statehouse }) => {
  await statehouse.seed({ session: false, state: { 'app:flag': true } });
  const [change] = await history('flag');
  expect(change).toMatchObject({ actor: `playwright: fixtures.spec.ts › ${test.info().title}`, reason: 'seeded by a test' });
});
