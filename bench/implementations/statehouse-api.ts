// Statehouse through the door an agent on another process uses: /api over
// HTTP with keep-alive connections as fetch keeps them, served either by
// `next start` (a production build, local mode on 127.0.0.1 for SQLite,
// an admin's API token on PostgreSQL) or by the reference door
// (bench/reference-door.ts: plain node:http over the same store code).
// Appends carry If-Match with the revision the last write returned, as an
// agent guarding its session copy would; that revision is what the door holds.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { ensureBuild, PROJECT_ROOT, ProductionServer } from '../../scripts/loadtest/server';
import { DoorTarget, rawSeeding, type Door } from './door';
import { newEventOf } from './raw-common';
import type { ImplName, SessionKey } from './types';

export interface ApiServerOptions {
  distDir: string;
  /** Node's own flags for both doors' server processes (BENCH_NODE_ARGS: `--cpu-prof --cpu-prof-dir=...`). */
  nodeArgs?: string[];
  /** Variables for the server process besides the database's and the access mode. */
  env?: Record<string, string>;
  port: number;
  log(message: string): void;
}

/** A revision for If-Match; undefined: loaded, the next append unguarded. */
type Revision = number | undefined;

export interface HttpDoor extends Door<Revision> {
  readonly baseUrl: string;
  /** The three tiers, as the session page's state panel reads them: how many keys. */
  state(key: SessionKey): Promise<number>;
  /** Process ids of the server, for its memory. */
  readonly pid: number | undefined;
}

const sessionPath = (key: SessionKey) =>
  `/api/apps/${encodeURIComponent(key.appName)}/users/${encodeURIComponent(key.userId)}/sessions/${encodeURIComponent(key.sessionId)}`;

function httpDoor(
  impl: ImplName,
  provider: 'sqlite' | 'postgresql',
  url: string,
  server: { baseUrl: string; pid: number | undefined; stop(): Promise<void> },
  auth: Record<string, string>,
): HttpDoor {
  const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok && response.status !== 404) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response;
  };
  const get: HttpDoor['get'] = async (key, numRecentEvents) => {
    const query = numRecentEvents === undefined ? '' : `?numRecentEvents=${numRecentEvents}`;
    const response = await send('GET', `${sessionPath(key)}${query}`);
    if (response.status === 404) {
      await response.text();
      return null;
    }
    const session = (await response.json()) as { events: unknown[]; state: Record<string, unknown> };
    return { eventCount: session.events.length, state: session.state };
  };
  return {
    impl,
    provider,
    baseUrl: server.baseUrl,
    pid: server.pid,
    ...rawSeeding(provider, url),
    async create(key, state) {
      await (await send('POST', sessionPath(key), state)).json();
      return 0;
    },
    async append(key, revision, event) {
      const ifMatch: Record<string, string> = revision === undefined ? {} : { 'if-match': `"${revision}"` };
      const response = await send('POST', `${sessionPath(key)}/events`, newEventOf(event), ifMatch);
      await response.json();
      const tag = /"(\d+)"/.exec(response.headers.get('etag') ?? '');
      return tag ? Number(tag[1]) : undefined;
    },
    get,
    async load(key) {
      return (await get(key, 1)) ? undefined : null;
    },
    async list(appName, userId) {
      if (userId === undefined) throw new Error('/api lists one user’s sessions');
      const response = await send('GET', `/api/apps/${encodeURIComponent(appName)}/users/${encodeURIComponent(userId)}/sessions`);
      return ((await response.json()) as unknown[]).length;
    },
    async state(key) {
      const view = (await (await send('GET', `${sessionPath(key)}/state`)).json()) as Record<'app' | 'user' | 'session', unknown[]>;
      return view.app.length + view.user.length + view.session.length;
    },
    close: () => server.stop(),
  };
}

/** An admin's API token in the database at `url` (migrated first). */
async function adminToken(url: string): Promise<string> {
  const { openServices } = await import('../../lib/services');
  const opened = await openServices(url, { migrate: true });
  try {
    await opened.accounts.createAccount({ name: 'bench', password: randomBytes(18).toString('base64url'), role: 'admin' });
    return (await opened.accounts.createToken('bench', 'bench')).secret;
  } finally {
    await opened.close();
  }
}

/** /api from `next start` on a build in options.distDir. */
export async function openApiDoor(provider: 'sqlite' | 'postgresql', url: string, options: ApiServerOptions): Promise<HttpDoor> {
  // SQLite: local mode, as the console runs by default. PostgreSQL is always
  // protected: an admin's API token (app: keys in a delta need the admin role).
  const token = provider === 'postgresql' ? await adminToken(url) : '';
  ensureBuild(options.distDir, options.log);
  const server = new ProductionServer({
    databaseUrl: url,
    distDir: options.distDir,
    port: options.port,
    token,
    nodeArgs: options.nodeArgs,
    env: { ...options.env, STATEHOUSE_AUTH: token ? 'protected' : 'local' },
  });
  options.log(`api: next start on ${server.baseUrl} (${options.distDir}, ${token ? 'protected, API token' : 'local'})`);
  // A server that never answered is stopped here: nothing else holds it.
  await server.start().catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });
  return httpDoor('statehouse-api', provider, url, server, token ? { authorization: `Bearer ${token}` } : {});
}

/**
 * The reference door (bench/reference-door.ts) in a process of its own, on
 * `port` (0: an ephemeral one). On PostgreSQL it checks an API token as /api does
 * there (protected), so both doors do the same authentication work.
 */
export async function openReferenceDoor(
  provider: 'sqlite' | 'postgresql',
  url: string,
  nodeArgs: string[] = [],
  port = 0,
): Promise<HttpDoor> {
  const token = provider === 'postgresql' ? await adminToken(url) : '';
  const env: Record<string, string> = { DOOR_PORT: String(port), ...(token ? { REFERENCE_AUTH: 'token' } : {}) };
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return openScriptDoor('statehouse-reference', provider, url, 'bench/reference-door.ts', nodeArgs, env, auth);
}

/** A door script of the bench's (`listening <port>` on stdout once it answers) in a process of its own. */
export async function openScriptDoor(
  impl: ImplName,
  provider: 'sqlite' | 'postgresql',
  url: string,
  script: string,
  nodeArgs: string[],
  env: Record<string, string>,
  auth: Record<string, string> = {},
): Promise<HttpDoor> {
  // BENCH_WRAP runs the door under another program (valgrind --tool=callgrind ...), for instruction counts.
  const wrap = process.env.BENCH_WRAP?.split(' ').filter(Boolean) ?? [];
  const command = [...wrap, process.execPath, ...nodeArgs, '--import', 'tsx', script, url];
  const child: ChildProcess = spawn(command[0] as string, command.slice(1), {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited (${code})`)));
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      const match = /^listening (\d+)$/.exec(line);
      if (match) resolve(Number(match[1]));
    });
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.kill('SIGTERM');
    await exited;
  };
  return httpDoor(impl, provider, url, { baseUrl: `http://127.0.0.1:${port}`, pid: child.pid, stop }, auth);
}

export async function statehouseApiTarget(
  provider: 'sqlite' | 'postgresql',
  url: string,
  options: ApiServerOptions,
): Promise<DoorTarget<Revision>> {
  return new DoorTarget(await openApiDoor(provider, url, options));
}
