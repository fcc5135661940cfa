// The Playwright kit's clean-up (statehouse/playwright) over a real HTTP
// server on the real routes. In a shared app (`user` namespace mode) it puts
// back only the app: keys its own test seeded, and only while they still hold
// what the test wrote; what anyone else changed meanwhile stays. It clears only
// the namespaces it marked as its own, naming the test and why in the
// operations log; and the next run sweeps what a killed run left.
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatehouseClient, StatehouseError } from '../../playwright/client';
import { Statehouse, type NamespaceMode } from '../../playwright/statehouse';
import { currentRun, sweepLeftovers } from '../../playwright/sweep';
import type { TestRun } from '../../playwright/types';
import { startApiServer, type ApiServer } from './api-server';
import { testProviders } from './databases';
import { uniqueName } from './factories';
import { useTestDatabase } from './use-test-database';

describe.each(await testProviders())('the kit’s clean-up of a shared app on %s', (provider) => {
  useTestDatabase(provider, { serveRoutes: true });
  let server: ApiServer | undefined;
  let client: StatehouseClient;
  beforeAll(async () => {
    server = await startApiServer();
    client = new StatehouseClient({ baseURL: server.url });
  });
  afterAll(() => server?.close());

  /** A test of the suite as the fixture runs it: its own namespace (in the shared app, in `user` mode), marked as the kit's. */
  async function startTest(app: string, title: string, mode: NamespaceMode = 'user', run: TestRun = currentRun()): Promise<Statehouse> {
    const namespace = mode === 'app' ? app : uniqueName('pw');
    const test = new Statehouse({ client, mode, namespace, sharedApp: app, titlePath: ['spec.ts', title], run });
    await test.open();
    return test;
  }
  const operations = async (app: string) =>
    (
      (await (await fetch(`${server?.url}/api/apps/${app}/operations`)).json()) as {
        items: { kind: string; actor: string; reason: string }[];
      }
    ).items;
  /** A run whose Playwright runner is gone (a process that has exited). */
  const killedRun = (): TestRun => {
    const pid = spawnSync(process.execPath, ['-e', '0']).pid ?? 0;
    return { id: `${hostname()}:${pid}`, host: hostname(), pid };
  };
  const person = (app: string, set: Record<string, unknown>) =>
    client.editAppState(app, { set: set as Record<string, never>, reason: 'a person at work', actor: 'ops' });

  it('leaves what others wrote during the test and puts back only the keys the test seeded', async () => {
    const app = uniqueName('shared');
    await person(app, { turns: 0, config: 'real' });

    const a = await startTest(app, 'a');
    await a.seed({ user: 'ada', state: { 'app:turns': 1, topic: 'x' } });
    const b = await startTest(app, 'b'); // starts while a's write is in place
    await b.seed({ user: 'bob', state: { topic: 'y' } });
    await person(app, { config: 'changed', added: 1 });
    await a.cleanUp();
    await b.cleanUp();

    expect(await client.appState(app)).toEqual({ turns: 0, config: 'changed', added: 1 });
    expect(a.cleanUpNotes).toEqual([]);
  });

  it('leaves a seeded key that changed after the test wrote it, and says so', async () => {
    const app = uniqueName('shared');
    await person(app, { turns: 0 });
    const test = await startTest(app, 'c');
    await test.seed({ user: 'cy', session: false, state: { 'app:turns': 5, 'app:fresh': true } });
    await person(app, { turns: 6 });
    await test.cleanUp();
    expect(await client.appState(app)).toEqual({ turns: 6 });
    expect(test.cleanUpNotes).toEqual([expect.stringMatching(/^app:turns of .* was left as it is: it changed after the test wrote it/)]);
  });

  it('names the test in the history of what it put back', async () => {
    const app = uniqueName('shared');
    const test = await startTest(app, 'names the test');
    await test.seed({ user: 'di', state: { 'app:flag': 'on' } });
    await test.cleanUp();
    const history = (await (await fetch(`${server?.url}/api/apps/${app}/history?scope=app&key=flag`)).json()) as {
      items: { actor: string }[];
    };
    expect(history.items[0]?.actor).toBe('playwright: spec.ts › names the test');
  });

  it('clears the test’s own app, naming the test and why in the operations log; an app it did not mark stays', async () => {
    const app = uniqueName('pw');
    const test = await startTest(app, 'own app', 'app');
    await test.seed({ user: 'ada', state: { 'app:tone': 'warm', topic: 'tea' } });
    const other = uniqueName('someone-elses');
    await person(other, { real: true });
    const refused = await client
      .clearApp(other, { reason: 'tidy', actor: 'playwright: spec.ts › own app' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StatehouseError);
    expect((refused as StatehouseError).status).toBe(403);
    await test.cleanUp();
    expect(await client.listApps()).not.toContain(app);
    expect(await client.appState(other)).toEqual({ real: true });
    expect(await operations(app)).toEqual([
      expect.objectContaining({
        kind: 'clear',
        actor: 'playwright: spec.ts › own app',
        reason: 'test clean-up: the namespace the test created',
      }),
    ]);
  });

  it('a dry run counts and changes nothing', async () => {
    const app = uniqueName('pw');
    const test = await startTest(app, 'dry', 'app');
    await test.seed({ user: 'ada', state: { 'app:tone': 'warm', topic: 'tea' } });
    const count = await client.clearApp(app, { reason: 'look first', actor: test.actor, dryRun: true });
    expect(count).toEqual({ dryRun: true, sessions: 1, events: 0, stateKeys: 1 });
    expect(await client.listApps()).toContain(app);
    await test.cleanUp();
  });

  it('the next run sweeps what a killed run left (its app, and its users in a shared app), and leaves live runs and everything else', async () => {
    const shared = uniqueName('shared');
    await person(shared, { config: 'real' });
    const killed = killedRun();
    const own = uniqueName('pw');
    const inOwn = await startTest(own, 'killed, own app', 'app', killed);
    await inOwn.seed({ user: 'ada', state: { topic: 'tea' } });
    const inShared = await startTest(shared, 'killed, shared app', 'user', killed);
    await inShared.seed({ user: 'bob', state: { topic: 'tea', 'user:name': 'Bob' } });
    const live = await startTest(uniqueName('pw'), 'still running', 'app', { ...currentRun(), id: 'another live run', pid: process.pid });
    await live.seed({ user: 'cy' });
    // (No clean-up: the run was killed.)

    const report = await sweepLeftovers(client, currentRun());
    expect(report.failures).toEqual([]);
    expect(report.swept.map((mark) => [mark.appName, mark.userSuffix])).toEqual(
      expect.arrayContaining([
        [own, ''],
        [shared, `@${inShared.namespace}`],
      ]),
    );
    expect(await client.listApps()).not.toContain(own);
    expect(await client.userIds(shared, '@')).toEqual([]);
    expect(await client.appState(shared)).toEqual({ config: 'real' });
    expect(await client.listApps()).toContain(live.appName);
    expect((await client.listNamespaces()).map((mark) => mark.appName)).toContain(live.appName);
    expect(await operations(shared)).toContainEqual(
      expect.objectContaining({ kind: 'clear', actor: 'playwright: sweep of a killed run', reason: expect.stringContaining(killed.id) }),
    );
    await live.cleanUp();
  });
});
