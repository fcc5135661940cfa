// Per-stage CPU of one /api request through the door, in one process: the
// same calls door.ts makes, each timed over many iterations (µs per call).
// Run as `NODE_ENV=production STATEHOUSE_AUTH=local DATABASE_URL=file:... node --import tsx bench/door-stages.ts`
// (STAGE_ONLY=serveApi: only the whole serveApi, e.g. under --cpu-prof; STAGE_PATH: another GET path).
import { createHook } from 'node:async_hooks';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { watchEnvironmentWrites } from '../lib/env';
import { fastApiRoute, headersOf, serveApi } from '../lib/http/api-door';
import { refusedAtDoor } from '../lib/http/door';
import { getStore } from '../lib/services';

/** The fake request's headers, for a web Request (every value a string). */
const fakeHeaders: Record<string, string> = {
  host: '127.0.0.1:4701',
  connection: 'keep-alive',
  accept: '*/*',
  'accept-encoding': 'gzip, deflate',
  'user-agent': 'undici',
};

const ITERATIONS = Number(process.env.STAGE_ITERATIONS ?? 3000);

function fakeRequest(method: string, url: string): IncomingMessage {
  const request = new IncomingMessage(new Socket());
  request.method = method;
  request.url = url;
  request.headers = { ...fakeHeaders };
  request.complete = true;
  request.push(null);
  return request;
}

async function time(name: string, run: () => unknown): Promise<void> {
  for (let i = 0; i < ITERATIONS / 5; i++) await run();
  const started = process.cpuUsage();
  for (let i = 0; i < ITERATIONS; i++) await run();
  const used = process.cpuUsage(started);
  console.log(`${name.padEnd(36)} ${((used.user + used.system) / ITERATIONS).toFixed(1).padStart(7)} µs`);
}

/**
 * The promises one call of `run` makes: a count, steady under load, and each
 * promise costs more while an AsyncLocalStorage is enabled (every Next server).
 */
async function countPromises(name: string, run: () => Promise<unknown>): Promise<void> {
  await run();
  let made = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'PROMISE') made++;
    },
  });
  hook.enable();
  await run();
  hook.disable();
  console.log(`${name.padEnd(36)} ${String(made).padStart(7)} promises`);
}

async function main(): Promise<void> {
  watchEnvironmentWrites();
  const store = await getStore();
  const session = await store.createSession({ appName: 'bench', userId: 'u', state: { a: 1, 'user:b': 2, 'app:c': 3 } });
  const path = `/api/apps/bench/users/u/sessions/${session.id}`;
  const url = process.env.STAGE_PATH ?? `${path}/state`;
  const only = process.env.STAGE_ONLY;
  if (only === 'serveApi') {
    const request = fakeRequest('GET', url);
    const match = fastApiRoute(request, headersOf(request));
    if (!match) throw new Error('no match');
    await time('serveApi (fake socket)', () => {
      const request = fakeRequest('GET', url);
      return serveApi(request, headersOf(request), match, new ServerResponse(request));
    });
    process.exit(0);
  }
  await time('headersOf', () => headersOf(fakeRequest('GET', url)));
  await time('fakeRequest (baseline)', () => fakeRequest('GET', url));
  await time('refusedAtDoor', () =>
    refusedAtDoor(fakeRequest('GET', url), headersOf(fakeRequest('GET', url)), new ServerResponse(fakeRequest('GET', url))),
  );
  await time('fastApiRoute', () => {
    const request = fakeRequest('GET', url);
    return fastApiRoute(request, headersOf(request));
  });
  await time('new URL + new Request', () => new Request(new URL(url, 'http://127.0.0.1:4701'), { method: 'GET', headers: fakeHeaders }));
  const request = fakeRequest('GET', url);
  const match = fastApiRoute(request, headersOf(request));
  if (!match) throw new Error('no match');
  await time('handler (route chain + read)', () =>
    match.handler(new Request(new URL(url, 'http://127.0.0.1:4701'), { method: 'GET', headers: fakeHeaders }), {
      params: Promise.resolve(match.params),
    }),
  );
  await time('store getSession alone', () => store.getSession({ appName: 'bench', userId: 'u', sessionId: session.id }));
  await time('serveApi (fake socket)', () => {
    const request = fakeRequest('GET', url);
    return serveApi(request, headersOf(request), match, new ServerResponse(request));
  });
  await countPromises('serveApi (fake socket)', () => {
    const request = fakeRequest('GET', url);
    return serveApi(request, headersOf(request), match, new ServerResponse(request));
  });
  process.exit(0);
}

void main();
