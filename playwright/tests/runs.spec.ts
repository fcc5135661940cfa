// The kit as another repository's suite uses it, run as child `playwright
// test` processes: parallel workers against a shared, protected deployment
// (PostgreSQL when reachable) never collide and leave nothing behind; a
// failing test's report holds the session's JSON and a screenshot.
import { expect, test } from '@playwright/test';
import { runInner } from './support/child-run';
import { e2ePort } from '../../e2e/support/ports';
import { startDeployment, type Deployment } from './support/deployment';

test.describe.configure({ mode: 'serial' });

test.describe('a shared deployment with a token', () => {
  let deployment: Deployment;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    deployment = await startDeployment(e2ePort('kit deployment'));
  });
  test.afterAll(async () => {
    await deployment?.stop();
  });

  test('four workers in both namespace modes never see each other, and leave every table as it was', async ({}, testInfo) => {
    test.setTimeout(180_000);
    const before = await deployment.tableCounts();
    // The shared app has state of its own that the run must leave alone.
    await fetch(`${deployment.url}/api/apps/kit-shared/state`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${deployment.token}` },
      body: JSON.stringify({ set: { banner: 'keep me' }, reason: 'kit suite', actor: 'kit' }),
    });
    const withShared = await deployment.tableCounts();

    const run = await runInner(testInfo, 'isolation.spec.ts', 4, { STATEHOUSE_URL: deployment.url, STATEHOUSE_TOKEN: deployment.token });
    expect(run.results.filter((r) => r.status !== 'passed').map((r) => `${r.title}: ${r.errors.join('\n')}`)).toEqual([]);
    expect(run.results).toHaveLength(12);
    expect(new Set(run.results.map((r) => r.parallelIndex)).size, 'ran on four workers at once').toBe(4);

    // Every table as it was, but the operations log: it keeps each test's mark-and-clear, naming the test.
    const { session_operations: logged = 0, ...after } = await deployment.tableCounts();
    const { session_operations: loggedBefore = 0, ...expected } = withShared;
    expect(after).toEqual(expected);
    expect(logged - loggedBefore, 'one clear recorded per test (the marks went with the data)').toBe(12);
    const log = await fetch(`${deployment.url}/api/apps/kit-shared/operations`, {
      headers: { authorization: `Bearer ${deployment.token}` },
    });
    const clears = ((await log.json()) as { items: { kind: string; actor: string }[] }).items;
    // On a protected deployment the log names the test, then the token's account.
    expect(clears[0]?.actor).toMatch(
      /^playwright: isolation\.spec\.ts › namespace user › test \d sees only its own sessions and state \(by kit-ci\)$/,
    );
    testInfo.annotations.push({ type: 'database', description: `${deployment.provider}: ${JSON.stringify(before)}` });
    const state = await fetch(`${deployment.url}/api/apps/kit-shared/state`, { headers: { authorization: `Bearer ${deployment.token}` } });
    expect(((await state.json()) as { entries: { key: string; value: unknown }[] }).entries.map((e) => [e.key, e.value])).toEqual([
      ['banner', 'keep me'],
    ]);
  });

  test('without the token the fixtures say what the server said', async ({}, testInfo) => {
    const run = await runInner(testInfo, 'failing.spec.ts', 1, { STATEHOUSE_URL: deployment.url, STATEHOUSE_TOKEN: '' });
    expect(run.results).toHaveLength(1);
    expect(run.results[0]?.errors.join('\n')).toContain('Statehouse answered 401');
  });
});

test('a failing test attaches the session as JSON and a screenshot of its page, then still cleans up', async ({
  baseURL,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const run = await runInner(testInfo, 'failing.spec.ts', 1, { STATEHOUSE_URL: baseURL ?? '', STATEHOUSE_TOKEN: '' });
  expect(run.exitCode).toBe(1);
  const [result] = run.results;
  expect(result?.status).toBe('failed');
  expect(result?.errors.join('\n')).toContain('toHaveState');

  const json = result?.attachments.find((a) => a.name === 'statehouse-user-doomed.json');
  const png = result?.attachments.find((a) => a.name === 'statehouse-user-doomed.png');
  expect(json?.contentType).toBe('application/json');
  expect(png?.contentType).toBe('image/png');
  const session = JSON.parse(Buffer.from(json?.body ?? '', 'base64').toString('utf8')) as { id: string; appName: string; state: unknown };
  expect(session).toMatchObject({ id: 'doomed', state: { topic: 'tea', 'user:name': 'Ada' } });
  expect(
    Buffer.from(png?.body ?? '', 'base64')
      .subarray(1, 4)
      .toString('latin1'),
  ).toBe('PNG');

  // Attached before the clean-up, which still ran: the app is gone.
  const apps = (await (await request.get('/api/list-apps')).json()) as string[];
  expect(apps).not.toContain(session.appName);
});
