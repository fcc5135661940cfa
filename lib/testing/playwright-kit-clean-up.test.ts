// The Playwright kit's clean-up in a shared app (statehouse/playwright, `user`
// namespace mode) over a real HTTP server on the real routes: it puts back
// only the app: keys its own test seeded, and only while they still hold what
// the test wrote; what anyone else changed meanwhile stays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatehouseClient } from '../../playwright/client';
import { Statehouse } from '../../playwright/statehouse';
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

  /** A test of the suite as the fixture runs it: its own namespace in the shared app. */
  async function startTest(app: string, title: string): Promise<Statehouse> {
    const test = new Statehouse({ client, mode: 'user', namespace: uniqueName('pw'), sharedApp: app, titlePath: ['spec.ts', title] });
    await test.touchApp(app); // what the fixture did at every start in `user` mode
    return test;
  }
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
});
