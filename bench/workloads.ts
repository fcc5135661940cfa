// The workloads, each a setup (fixtures, not timed), a warm-up and a timed
// round. A round's figure is its mean milliseconds per operation; the report
// takes the median over rounds.
import { appendEvent, concurrentEvent, concurrentKey, createState, listSessions } from './data';
import type { BenchTarget, SessionKey } from './implementations/types';
import type { Scale } from './options';

export interface RoundResult {
  ops: number;
  totalMs: number;
  /** CPU time of this process (user + system) over the round: unlike wall time, barely moved by other processes. */
  cpuMs: number;
  /** Per-operation latencies (ms), where operations are timed one by one. */
  latencies: number[];
  /** Concurrent workload: successful appends whose user: key is missing afterwards. */
  lost?: number;
  /** Concurrent workload: appends that threw. */
  failed?: number;
  /** Growth workload: p50 latency over the last tenth of the appends / over the first tenth. */
  growth?: number;
  failures?: string[];
}

export interface Workload {
  name: string;
  title: string;
  /** Implementations without the operation get no row (n/a in the table). */
  applies?(target: BenchTarget): boolean;
  /** Rounds of this workload when not the scale's. */
  rounds?: number;
  setup(target: BenchTarget, scale: Scale, fixtures: Fixtures): Promise<void>;
  warmup(target: BenchTarget, scale: Scale): Promise<void>;
  round(target: BenchTarget, scale: Scale, round: number): Promise<RoundResult>;
}

const APP = 'bench';
const USER = 'u-main';
export const APPEND_KEY: SessionKey = { appName: APP, userId: USER, sessionId: 'append-target' };
export const BIG_KEY: SessionKey = { appName: APP, userId: USER, sessionId: 'big' };
export const SMALL_KEY: SessionKey = { appName: APP, userId: USER, sessionId: 'small' };
export const LIST_APP = 'bench-list';
export const LIST_USER = 'lu0';
const CREATE_APP = 'bench-create';
const CONC_APP = 'bench-conc';

/** Fixtures built once per target, whichever workload needs them first. */
export class Fixtures {
  private readonly done = new Set<string>();

  /** Names of the fixtures built so far. */
  get built(): string[] {
    return [...this.done];
  }

  async ensure(name: string, build: () => Promise<void>): Promise<void> {
    if (this.done.has(name)) return;
    await build();
    this.done.add(name);
  }
}

/** A session of `total` events: all but the last 10 loaded as fixture rows, the last 10 appended for real (so every tier is written through the implementation). */
export async function buildEventSession(target: BenchTarget, key: SessionKey, total: number): Promise<void> {
  await target.create(key, { topic: key.sessionId });
  const real = Math.min(10, total);
  const seeded = total - real;
  if (seeded > 0) {
    await target.seedEvents(
      key,
      Array.from({ length: seeded }, (_, i) => appendEvent(i)),
    );
    await target.load(key);
  }
  for (let i = seeded; i < total; i++) await target.append(key, appendEvent(i));
  target.forget(key);
}

export async function buildListApp(target: BenchTarget, scale: Scale): Promise<void> {
  const perUser = scale.listUserSessions;
  const users = Math.ceil(scale.listAppSessions / perUser);
  await target.seedSessions(LIST_APP, listSessions(users, perUser));
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

async function timedOps(count: number, op: (i: number) => Promise<void>): Promise<RoundResult> {
  const latencies: number[] = [];
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await op(i);
    latencies.push(performance.now() - t);
  }
  return { ops: count, totalMs: performance.now() - start, cpuMs: cpuMsSince(cpu), latencies };
}

function expectEvents(got: { eventCount: number } | null, expected: number, what: string): void {
  if (!got) throw new Error(`${what}: session not found`);
  if (got.eventCount !== expected) throw new Error(`${what}: expected ${expected} events, got ${got.eventCount}`);
}

interface TimedRead extends Pick<Workload, 'name' | 'title' | 'applies' | 'setup'> {
  /** Reads a round. */
  ops: (scale: Scale) => number;
  /** Reads before the rounds. */
  warmups: number;
  /** One read, throwing when its answer is not what the fixture holds. */
  read: (target: BenchTarget, scale: Scale) => Promise<void>;
}

/** A workload that times one checked read, `ops` times a round. */
function timedRead({ ops, warmups, read, ...workload }: TimedRead): Workload {
  return {
    ...workload,
    async warmup(target, scale) {
      for (let i = 0; i < warmups; i++) await read(target, scale);
    },
    round: (target, scale) => timedOps(ops(scale), () => read(target, scale)),
  };
}

const create: Workload = {
  name: 'create',
  title: 'create session',
  async setup() {},
  async warmup(target) {
    for (let i = 0; i < 3; i++) {
      const key = { appName: CREATE_APP, userId: 'cu-warm', sessionId: `c-warm-${i}` };
      await target.create(key, createState(i));
      target.forget(key);
    }
  },
  round(target, scale, round) {
    return timedOps(scale.creates, async (i) => {
      const key = { appName: CREATE_APP, userId: `cu${i % 10}`, sessionId: `c-${round}-${i}` };
      await target.create(key, createState(i));
      target.forget(key);
    });
  },
};

let appendCounter = 0;
const append: Workload = {
  name: 'append',
  title: 'append (sequential, 1 session)',
  async setup(target, _scale, fixtures) {
    await fixtures.ensure('append-target', () => target.create(APPEND_KEY, { topic: 'append' }));
  },
  async warmup(target) {
    for (let i = 0; i < 3; i++) await target.append(APPEND_KEY, appendEvent(appendCounter++));
  },
  round(target, scale) {
    return timedOps(scale.appends, () => target.append(APPEND_KEY, appendEvent(appendCounter++)));
  },
};

async function concurrentRound(target: BenchTarget, writers: number, appends: number, user: string): Promise<RoundResult> {
  const keys = Array.from({ length: writers }, (_, j) => ({ appName: CONC_APP, userId: user, sessionId: `w${j}` }));
  for (const key of keys) await target.create(key, { topic: 'concurrent' });
  const latencies: number[] = [];
  const succeeded: number[][] = keys.map(() => []);
  const failures: string[] = [];
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    keys.map(async (key, j) => {
      for (let i = 0; i < appends; i++) {
        const t = performance.now();
        try {
          await target.append(key, concurrentEvent(j, i));
          succeeded[j]?.push(i);
        } catch (error) {
          failures.push(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  const totalMs = performance.now() - start;
  const cpuMs = cpuMsSince(cpu);
  const first = keys[0];
  const read = first ? await target.get(first, 1) : null;
  if (!read) throw new Error('concurrent: session not found afterwards');
  let lost = 0;
  succeeded.forEach((indexes, j) => {
    for (const i of indexes) if (read.state[concurrentKey(j, i)] !== i) lost++;
  });
  for (const key of keys) target.forget(key);
  return { ops: writers * appends, totalMs, cpuMs, latencies, lost, failed: failures.length, failures: [...new Set(failures)].slice(0, 3) };
}

const concurrent: Workload = {
  name: 'concurrent',
  title: 'append (8 sessions of 1 user, concurrent)',
  async setup() {},
  async warmup(target, scale) {
    await concurrentRound(target, scale.writers, 2, 'conc-warm');
  },
  round(target, scale, round) {
    return concurrentRound(target, scale.writers, scale.concurrentAppends, `conc-r${round}`);
  },
};

/** numRecentEvents on the big session, or on the small one, which holds fewer events than that. */
function getRecent(fixture: 'big' | 'small', title: string): Workload {
  const key = fixture === 'big' ? BIG_KEY : SMALL_KEY;
  const stored = (scale: Scale) => (fixture === 'big' ? scale.bigEvents : scale.smallEvents);
  const expected = (scale: Scale) => (fixture === 'big' ? scale.recentEvents : scale.smallEvents);
  return timedRead({
    name: `get-recent-${fixture}`,
    title,
    setup: (target, scale, fixtures) => fixtures.ensure(fixture, () => buildEventSession(target, key, stored(scale))),
    ops: (scale) => scale.getRecentOps,
    warmups: 2,
    read: async (target, scale) => expectEvents(await target.get(key, scale.recentEvents), expected(scale), 'get-recent'),
  });
}

const getRecentBig = getRecent('big', 'get, numRecentEvents=20, big session');
const getRecentSmall = getRecent('small', 'get, numRecentEvents=20, 10-event session');

const getFull = timedRead({
  name: 'get-full',
  title: 'get, all events, big session',
  setup: (target, scale, fixtures) => fixtures.ensure('big', () => buildEventSession(target, BIG_KEY, scale.bigEvents)),
  ops: (scale) => scale.getFullOps,
  warmups: 1,
  read: async (target, scale) => expectEvents(await target.get(BIG_KEY), scale.bigEvents, 'get-full'),
});

async function expectListed(target: BenchTarget, expected: number, userId?: string): Promise<void> {
  const n = await target.list(LIST_APP, userId);
  if (n !== expected) throw new Error(`list: expected ${expected} sessions, got ${n}`);
}

const listUser = timedRead({
  name: 'list-user',
  title: 'list sessions of a user',
  setup: (target, scale, fixtures) => fixtures.ensure('list', () => buildListApp(target, scale)),
  ops: (scale) => scale.listOps,
  warmups: 1,
  read: (target, scale) => expectListed(target, scale.listUserSessions, LIST_USER),
});

const listApp = timedRead({
  name: 'list-app',
  title: 'list sessions of an app',
  applies: (target) => target.impl !== 'statehouse-api',
  setup: (target, scale, fixtures) => fixtures.ensure('list', () => buildListApp(target, scale)),
  ops: (scale) => scale.listOps,
  warmups: 1,
  read: (target, scale) => expectListed(target, scale.listAppSessions),
});

export function pageApp(count: number): string {
  return `bench-pages-${count}`;
}

/** Reads per round of the pages shown only for what they cost. */
function informationalOps(scale: Scale): number {
  return Math.max(5, Math.round(scale.pageOps / 10));
}

async function ensurePageApp(target: BenchTarget, fixtures: Fixtures, count: number): Promise<void> {
  const perUser = 100;
  const appName = pageApp(count);
  await fixtures.ensure(appName, () => target.seedSessions(appName, listSessions(Math.ceil(count / perUser), perUser).slice(0, count)));
}

/** A first page's check: `pageSize` sessions or users, or all there are of `total`, and the total as counted (`counted`). */
function checkPage(
  what: string,
  page: { items: number; total: number } | undefined,
  pageSize: number,
  total: number,
  counted = total,
): void {
  if (!page || page.items !== Math.min(pageSize, total) || page.total !== counted) {
    throw new Error(`${what}: expected ${pageSize} of ${total}, got ${JSON.stringify(page)}`);
  }
}

/** The first page of an app's sessions (newest first, with the total), the app having `count` sessions. */
function listPage(count: number, pageSize: number): Workload {
  const appName = pageApp(count);
  const expectPage = async (target: BenchTarget, scale: Scale) =>
    checkPage('list-page', await target.listPage?.(appName, scale.pageSize), scale.pageSize, count);
  return timedRead({
    name: `list-page-${count}`,
    title: `list page of ${pageSize}, app of ${count.toLocaleString('en')} sessions`,
    applies: (target) => target.listPage !== undefined,
    setup: (target, _scale, fixtures) => ensurePageApp(target, fixtures, count),
    ops: (scale) => scale.pageOps,
    warmups: 2,
    read: expectPage,
  });
}

/**
 * Not a target, shown for what it costs: the first page of a search that
 * every session of the app matches (session id contains "ls-"), with its
 * total, which counts at most 10,000 matches. Statehouse only.
 */
function searchPage(count: number, pageSize: number): Workload {
  const appName = pageApp(count);
  const expectPage = async (target: BenchTarget, scale: Scale) =>
    checkPage('search-page', await target.searchPage?.(appName, scale.pageSize, 'ls-'), scale.pageSize, count, Math.min(count, 10_000));
  return timedRead({
    name: `search-page-${count}`,
    title: `search page of ${pageSize} (id contains), ${count.toLocaleString('en')} matches`,
    applies: (target) => target.searchPage !== undefined,
    setup: (target, _scale, fixtures) => ensurePageApp(target, fixtures, count),
    ops: informationalOps,
    warmups: 2,
    read: expectPage,
  });
}

/**
 * Not a target, shown for what it costs: the first page of an app's users
 * by last activity (100 sessions each), which groups every session of the
 * app. Statehouse only.
 */
function usersPage(count: number, pageSize: number): Workload {
  const appName = pageApp(count);
  const users = Math.ceil(count / 100);
  const expectPage = async (target: BenchTarget, scale: Scale) =>
    checkPage('users-page', await target.usersPage?.(appName, scale.pageSize), scale.pageSize, users);
  return timedRead({
    name: `users-page-${count}`,
    title: `users page of ${pageSize}, app of ${count.toLocaleString('en')} sessions`,
    applies: (target) => target.usersPage !== undefined,
    setup: (target, _scale, fixtures) => ensurePageApp(target, fixtures, count),
    ops: informationalOps,
    warmups: 2,
    read: expectPage,
  });
}

/**
 * adk-js's listSessions with a limit: the first page (newest first) of a
 * user's sessions (`userId`) or of an app's, each with its merged state, and
 * the total. What an agent's session picker reads.
 */
function sessionPage(
  name: string,
  title: string,
  appName: string,
  userId: string | undefined,
  sessions: (scale: Scale) => number,
  fixture: (target: BenchTarget, scale: Scale, fixtures: Fixtures) => Promise<void>,
): Workload {
  const expectPage = async (target: BenchTarget, scale: Scale) =>
    checkPage(name, await target.sessionPage?.(appName, userId, scale.pageSize), scale.pageSize, sessions(scale));
  return timedRead({
    name,
    title,
    applies: (target) => target.sessionPage !== undefined,
    setup: fixture,
    ops: (scale) => scale.pageOps,
    warmups: 2,
    read: expectPage,
  });
}

const GROWTH_APP = 'bench-growth';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Append cost against session length and history size: `growthAppends`
 * appends to one new session (each writing a session key and a user: key,
 * every 10th an app: key), timed one by one; the figure is the mean, and
 * `growth` the p50 over the last tenth / the p50 over the first tenth.
 * One round (it is long); the ADK services are left out (minutes each).
 */
const appendGrowth: Workload = {
  name: 'append-growth',
  title: 'append, first vs last tenth of a long session',
  rounds: 1,
  applies: (target) => target.impl !== 'adk-db' && target.impl !== 'adk-memory',
  async setup() {},
  async warmup() {},
  async round(target, scale, round) {
    const key = { appName: GROWTH_APP, userId: 'g', sessionId: `growth-${round}` };
    await target.create(key, { topic: 'growth' });
    const result = await timedOps(scale.growthAppends, (i) => target.append(key, appendEvent(i)));
    target.forget(key);
    const tenth = Math.max(1, Math.floor(scale.growthAppends / 10));
    result.growth = median(result.latencies.slice(-tenth)) / median(result.latencies.slice(0, tenth));
    return result;
  },
};

/**
 * The state panel's read (three tiers, each key with its latest change) of
 * the session append-growth just wrote, right after that bulk write and
 * before any ANALYZE: the read must not depend on fresh statistics. The
 * figure is the fresh read; `growth` is fresh / the same read after ANALYZE
 * (target: within 2x). Builds the session through real appends when
 * append-growth did not run. Statehouse only; one round.
 */
const stateAfterBulkWrite: Workload = {
  name: 'state-fresh',
  title: 'state (3 tiers with latest changes) right after a bulk write, no ANALYZE',
  rounds: 1,
  applies: (target) => target.stateTiers !== undefined,
  async setup(target, scale) {
    const key = { appName: GROWTH_APP, userId: 'g', sessionId: 'growth-0' };
    if (await target.get(key, 0)) return;
    await target.create(key, { topic: 'growth' });
    for (let i = 0; i < scale.growthAppends; i++) await target.append(key, appendEvent(i));
    target.forget(key);
  },
  async warmup() {},
  async round(target, scale) {
    const key = { appName: GROWTH_APP, userId: 'g', sessionId: 'growth-0' };
    const reads = Math.max(5, Math.round(scale.getRecentOps / 10));
    const fresh = await timedOps(reads, async () => void (await target.stateTiers?.(key)));
    await target.gatherStatistics?.();
    const analysed = await timedOps(reads, async () => void (await target.stateTiers?.(key)));
    fresh.growth = median(fresh.latencies) / median(analysed.latencies);
    return fresh;
  },
};

/** Every workload of a scale, in the order the table shows them. */
export function workloadsFor(scale: Scale): Workload[] {
  const titled = (w: Workload, title: string): Workload => ({ ...w, title });
  const events = scale.bigEvents.toLocaleString('en');
  return [
    create,
    append,
    titled(concurrent, `append (${scale.writers} sessions of 1 user, concurrent)`),
    titled(getRecentBig, `get, numRecentEvents=${scale.recentEvents}, ${events}-event session`),
    titled(getRecentSmall, `get, numRecentEvents=${scale.recentEvents}, ${scale.smallEvents}-event session`),
    titled(getFull, `get, all events, ${events}-event session`),
    titled(listUser, `list sessions of a user (${scale.listUserSessions.toLocaleString('en')})`),
    titled(listApp, `list sessions of an app (${scale.listAppSessions.toLocaleString('en')})`),
    sessionPage(
      'session-page-user',
      `listSessions limit ${scale.pageSize}, user of ${scale.listUserSessions.toLocaleString('en')} sessions`,
      LIST_APP,
      LIST_USER,
      (s) => s.listUserSessions,
      (target, s, fixtures) => fixtures.ensure('list', () => buildListApp(target, s)),
    ),
    ...scale.pageCounts.map((count) =>
      sessionPage(
        `session-page-${count}`,
        `listSessions limit ${scale.pageSize}, app of ${count.toLocaleString('en')} sessions`,
        pageApp(count),
        undefined,
        () => count,
        (target, _s, fixtures) => ensurePageApp(target, fixtures, count),
      ),
    ),
    titled(appendGrowth, `append, last vs first tenth of ${scale.growthAppends.toLocaleString('en')} to one session`),
    titled(stateAfterBulkWrite, `state of that ${scale.growthAppends.toLocaleString('en')}-event session right after, no ANALYZE`),
    ...scale.pageCounts.map((count) => listPage(count, scale.pageSize)),
    ...scale.pageCounts.map((count) => searchPage(count, scale.pageSize)),
    ...scale.pageCounts.map((count) => usersPage(count, scale.pageSize)),
  ];
}
