// The standalone build (npm run build: next build, then scripts/standalone.mjs)
// copied out of the repository and run with Node alone, as a container runs it:
// its own migrate and accounts commands, then the server on SQLite (health,
// readiness, metrics, traces, a sign-in in the browser), then two servers over
// one PostgreSQL database, checked across each other: a sign-in, the sign-in
// throttle, live updates and an edit conflict. It reuses the build the run's
// web server made (next.config.js asks Next for the standalone folder).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { BUDGETS } from '../lib/auth/sign-in-throttle';
import { createScratchDatabase, testProviders, type ScratchDatabase } from '../lib/testing/databases';
import { startOtlpReceiver, type OtlpReceiver } from '../lib/testing/otlp-receiver';
import { projectRoot } from './support/database';
import { e2ePort, e2eUrl, type E2eServer } from './support/ports';
import { captureAction, send, sentTo, withFormFields, type Sent } from './support/replay';

// Builds, migrations and server starts on a loaded machine take minutes, not the default 30 s.
test.describe.configure({ mode: 'serial', timeout: 300_000 });

const PASSWORD = 'standalone password';
const METRICS_TOKEN = 'standalone-metrics-token';
const distDir = join(projectRoot, process.env.NEXT_DIST_DIR || '.next');

let app: string;

test.beforeAll(() => {
  test.skip(!existsSync(join(distDir, 'standalone', 'server.js')), 'No standalone build (next build with output: standalone) to copy.');
  app = mkdtempSync(join(tmpdir(), 'standalone-copy-'));
  execFileSync(process.execPath, [join(projectRoot, 'scripts', 'standalone.mjs'), '--out', app], { cwd: projectRoot, stdio: 'pipe' });
});
test.afterAll(() => {
  if (app) rmSync(app, { recursive: true, force: true });
});

/** Only what a container would set: no path into the repository, no variable of the test run. */
function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', ...env };
}

/** `node <command>.mjs ...` of the copied build, started from elsewhere (each command finds its own folder). */
function command(name: 'migrate' | 'accounts', args: string[], env: Record<string, string>): string {
  return execFileSync(process.execPath, [join(app, `${name}.mjs`), ...args], { cwd: tmpdir(), env: cleanEnv(env), encoding: 'utf8' });
}

/** Creates an admin account and an API token for it; the token. */
function createAdmin(name: string, databaseUrl: string): string {
  command('accounts', ['create', name, '--role', 'admin'], { DATABASE_URL: databaseUrl, STATEHOUSE_PASSWORD: PASSWORD });
  const printed = command('accounts', ['token', 'create', name], { DATABASE_URL: databaseUrl }).trim().split('\n');
  return printed[printed.length - 1] ?? '';
}

interface Running {
  url: string;
  stop(): Promise<void>;
}

async function startServer(server: E2eServer, env: Record<string, string>): Promise<Running> {
  const url = e2eUrl(server);
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['server.js'], {
    cwd: app,
    env: cleanEnv({ PORT: String(e2ePort(server)), HOSTNAME: '127.0.0.1', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    // A server still finishing its keep-alive connections is not waited for long.
    const late = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(late);
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server.js exited (${child.exitCode}):\n${output}`);
    const up = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { url, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server.js did not answer /healthz within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function signIn(page: Page, url: string, name: string, password: string): Promise<void> {
  await page.goto(`${url}/sign-in`);
  await page.getByLabel('Account name').fill(name);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${url}/apps`);
}

test('runs from a copy outside the repository, on SQLite', async ({ page }) => {
  expect(relative(projectRoot, app).startsWith('..')).toBe(true);
  const data = mkdtempSync(join(tmpdir(), 'standalone-data-'));
  const receiver: OtlpReceiver = await startOtlpReceiver();
  const databaseUrl = `file:${join(data, 'statehouse.db')}`;
  let server: Running | undefined;
  try {
    expect(command('migrate', [], { DATABASE_URL: databaseUrl })).toContain('_sign_in_throttle');
    expect(command('migrate', [], { DATABASE_URL: databaseUrl })).toContain('up to date');
    const token = createAdmin('ops', databaseUrl);
    server = await startServer('standalone console', {
      DATABASE_URL: databaseUrl,
      STATEHOUSE_METRICS_TOKEN: METRICS_TOKEN,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    });
    const { url } = server;

    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ status: 'ready', checks: { statehouse: 'up' } });
    const created = await fetch(`${url}/api/apps/standalone/users/u/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId: 's1', state: { step: 1 } }),
    });
    expect(created.status).toBe(200);

    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    const metrics = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(metrics).toContain(
      'statehouse_http_request_duration_seconds_count{method="POST",route="/api/apps/:app/users/:user/sessions",status="200"} 1',
    );
    expect(metrics).toContain(
      'statehouse_store_operation_duration_seconds_count{family="native",kind="write",operation="createSession",outcome="ok"} 1',
    );

    const request = await receiver.waitFor((span) => span.name === 'POST /api/apps/:app/users/:user/sessions');
    await receiver.waitFor((span) => span.name === 'store createSession' && span.traceId === request.traceId);
    await receiver.waitFor((span) => span.attributes['db.system.name'] === 'sqlite' && span.traceId === request.traceId);

    // The browser's assets come from the copy too: the page hydrates and the sign-in works.
    await signIn(page, url, 'ops', PASSWORD);
    await expect(page.getByRole('link', { name: 'standalone' })).toBeVisible();
  } finally {
    await server?.stop();
    await receiver.close();
    rmSync(data, { recursive: true, force: true });
  }
});

test.describe('two servers over one PostgreSQL database', () => {
  let database: ScratchDatabase | undefined;
  let first: Running | undefined;
  let second: Running | undefined;
  let token = '';

  test.beforeAll(async () => {
    test.skip(!(await testProviders()).includes('postgresql'), 'PostgreSQL is not reachable.');
    database = await createScratchDatabase('postgresql', 'standalone');
    expect(command('migrate', [], { DATABASE_URL: database.url })).toContain('Applied');
    token = createAdmin('ops', database.url);
    first = await startServer('standalone console', { DATABASE_URL: database.url });
    second = await startServer('second standalone console', { DATABASE_URL: database.url });
  });
  test.afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await database?.remove();
  });

  const servers = () => {
    if (!first || !second) throw new Error('servers not started');
    return [first.url, second.url] as const;
  };
  const api = (url: string, path: string, init: RequestInit = {}) =>
    fetch(`${url}/api${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
    });

  test('both are ready', async () => {
    for (const url of servers())
      expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ status: 'ready', checks: { statehouse: 'up' } });
  });

  test('a sign-in on one is a sign-in on the other', async ({ page }) => {
    const [a, b] = servers();
    await signIn(page, a, 'ops', PASSWORD);
    await page.goto(`${b}/apps`);
    await expect(page).toHaveURL(`${b}/apps`);
    await expect(page.getByRole('link', { name: 'live' }).or(page.getByText('No apps yet'))).toBeVisible();
    await expect(page.getByLabel('Password')).toHaveCount(0);
  });

  test('guesses through both count against one budget', async ({ browser }) => {
    const [a, b] = servers();
    const signInAction = await captureSignIn(browser, a);
    const outcomes: string[] = [];
    for (let attempt = 0; attempt <= BUDGETS.pair.free; attempt += 1) {
      const sent = sentTo(signInAction, attempt % 2 === 0 ? a : b);
      const answer = await send(sent, { from: '127.0.0.7', body: withFormFields(sent.body, { name: 'ops', password: 'wrong guess' }) });
      outcomes.push(
        answer.text.includes('Too many failed attempts')
          ? 'throttled'
          : answer.text.includes('Wrong account name')
            ? 'wrong'
            : `${answer.status}`,
      );
    }
    // In memory, each server would have counted only its own half and checked the last guess too.
    expect(outcomes).toEqual([...Array<string>(BUDGETS.pair.free).fill('wrong'), 'throttled']);
  });

  test('an event appended through one appears live on the other’s page', async ({ page }) => {
    const [a, b] = servers();
    expect((await api(a, '/apps/live/users/u/sessions', { method: 'POST', body: JSON.stringify({ sessionId: 's1' }) })).status).toBe(200);
    await signIn(page, b, 'ops', PASSWORD);
    const polled = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/state') && response.ok());
    await page.goto(`${b}/apps/live/users/u/sessions/s1`);
    await polled;
    const appended = await api(a, '/apps/live/users/u/sessions/s1/events', {
      method: 'POST',
      body: JSON.stringify({
        author: 'agent',
        invocationId: 'i1',
        content: { role: 'model', parts: [{ text: 'Written through the other server.' }] },
      }),
    });
    expect(appended.status).toBe(200);
    await expect(page.getByRole('article', { name: 'Event #1', exact: true })).toContainText('Written through the other server.', {
      timeout: 15_000,
    });
  });

  test('an append guarded by a revision the other server moved past is a conflict', async () => {
    const [a, b] = servers();
    expect((await api(a, '/apps/conflict/users/u/sessions', { method: 'POST', body: JSON.stringify({ sessionId: 's1' }) })).status).toBe(
      200,
    );
    const event = (text: string) => JSON.stringify({ author: 'agent', invocationId: text, content: { role: 'model', parts: [{ text }] } });
    const base = await api(a, '/apps/conflict/users/u/sessions/s1/events', { method: 'POST', body: event('base') });
    const revision = base.headers.get('etag') ?? '';
    expect(revision).toMatch(/^"\d+"$/);
    const through = await api(b, '/apps/conflict/users/u/sessions/s1/events', {
      method: 'POST',
      headers: { 'if-match': revision },
      body: event('first'),
    });
    expect(through.status).toBe(200);
    const stale = await api(a, '/apps/conflict/users/u/sessions/s1/events', {
      method: 'POST',
      headers: { 'if-match': revision },
      body: event('second'),
    });
    expect(stale.status).toBe(409);
  });
});

/** The sign-in action as the browser posts it to `url` (one wrong guess for a name nobody has). */
async function captureSignIn(browser: Browser, url: string): Promise<Sent> {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${url}/sign-in`);
    await page.getByLabel('Account name').fill('nobody-at-all');
    await page.getByLabel('Password').fill('not a password');
    return await captureAction(page, () => page.getByRole('button', { name: 'Sign in' }).click());
  } finally {
    await context.close();
  }
}
