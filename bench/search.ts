// `npm run bench -- --search`: the console's search at 100,000 sessions and
// 1,000,000 events. Native store on SQLite and PostgreSQL (the text index
// the search_index migration keeps), and an adk-python SqliteSessionService
// database, where Statehouse may add no index: the bounded scan the store
// uses, and the index of Statehouse's own that the server keeps (search_docs in its
// database) filled from the agent's rows. Data is generated in SQL, a few
// statements per table, so the triggers that keep the index run as they do
// on every write. Targets: native p50 under 300 ms; ADK first results under 1 s.
import Database from 'better-sqlite3';
import pg from 'pg';
import { sqltag as sql } from '@prisma/client/runtime/client';
import { migrateDatabase } from '../lib/migrate';
import { openServices } from '../lib/services';
import { scanEvents } from '../lib/data/event-search';
import type { SessionStore } from '../lib/session-service/store';
import { openAdkStore } from '../lib/stores/adk';
import { openDatabase } from '../lib/db';
import { StoreSearchIndex } from '../lib/stores/adk/search-index-log';
import { PY_SQLITE_DDL } from '../lib/testing/adk-fixtures/python-sqlite';
import type { SearchStoreKind } from './options';
import type { Scratch } from './scratch';
import { median } from './stats';

export const SEARCH_APP = 'bench-search';

export interface SearchScale {
  sessions: number;
  eventsPerSession: number;
  /** Timed runs of each query (after one untimed). */
  runs: number;
}

export const SEARCH_SCALE: SearchScale = { sessions: 100_000, eventsPerSession: 10, runs: 7 };

/** `--scale small`: the same shape at a tenth. */
export const SMALL_SEARCH_SCALE: SearchScale = { sessions: 10_000, eventsPerSession: 10, runs: 5 };

export interface SearchCase {
  name: string;
  p50Ms: number;
  maxMs: number;
  /** What the first run answered: hits or sessions, and coverage when bounded. */
  answer: string;
}

export interface SearchGroup {
  label: string;
  /** Seconds to write the data (with the index kept by the triggers, where there is one). */
  loadSeconds: number;
  cases: SearchCase[];
}

export interface SearchBenchResult {
  sessions: number;
  events: number;
  groups: SearchGroup[];
}

async function timeCase(name: string, runs: number, run: () => Promise<string>): Promise<SearchCase> {
  const answer = await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return { name, p50Ms: Math.round(median(times) * 10) / 10, maxMs: Math.round(Math.max(...times) * 10) / 10, answer };
}

/** The same searches on any store. */
/** The app-wide event search as the Events tab runs it: through the store's index when whole, else the bounded scan. */
const eventsFound = (store: SessionStore, text: string) => async () => {
  const indexed = await store.searchEvents?.({ appName: SEARCH_APP, text, limit: 50 });
  const result = indexed && 'hits' in indexed ? indexed : await scanEvents(store, { appName: SEARCH_APP, text, limit: 50 });
  const coverage = result.coverage ? `, searched ${result.coverage.searched} of ${result.coverage.total} sessions` : '';
  return `${result.hits.length} events (${result.method})${coverage}`;
};

/** Events of the session near the start of the app (the oldest: a newest-first scan reaches it last). */
const OLD_SESSION_EVENTS = 'order session-000042';

/** Every trigram of it is in every event ("Message k about order ..."), but no doc holds it: the trigram index's worst case. */
const COMMON_WORDS_NOWHERE = 'about message';

/** Text of a tenth of the events (sessions 040000-049999): the page fills at once, its events read back by key. */
const MANY_EVENTS = 'about order session-04';

async function storeCases(store: SessionStore, runs: number): Promise<SearchCase[]> {
  const found = (text: string) => async () => {
    const result = await store.find({ text, limit: 20 });
    const coverage = result.coverage ? `, searched ${result.coverage.searched} of ${result.coverage.total}` : '';
    return `${result.hits.length} hits${coverage}`;
  };
  const filtered = (filters: Parameters<SessionStore['searchSessions']>[0]['filters']) => async () => {
    const page = await store.searchSessions({ appName: SEARCH_APP, filters, limit: 25 });
    return `${page.items.length} of ${page.totalIsLowerBound ? '≥' : ''}${page.total}`;
  };
  return [
    await timeCase('find "Carol Nguyen" (one session)', runs, found('Carol Nguyen')),
    await timeCase('find "refund" (a fifth of the sessions)', runs, found('refund')),
    await timeCase('find "no such text"', runs, found('no such text')),
    await timeCase(`find "${COMMON_WORDS_NOWHERE}" (every event has both words, no doc the text)`, runs, found(COMMON_WORDS_NOWHERE)),
    await timeCase(`events "${OLD_SESSION_EVENTS}" (an old session's)`, runs, eventsFound(store, OLD_SESSION_EVENTS)),
    await timeCase(`events "${MANY_EVENTS}" (100,000 events hold it)`, runs, eventsFound(store, MANY_EVENTS)),
    await timeCase(
      `events "${COMMON_WORDS_NOWHERE}" (every event has both words, none the text)`,
      runs,
      eventsFound(store, COMMON_WORDS_NOWHERE),
    ),
    await timeCase('filter topic contains "refu"', runs, filtered([{ key: 'topic', op: 'contains', value: 'refu' }])),
    await timeCase(
      'filter profile.age > 70 and topic = "login"',
      runs,
      filtered([
        { key: 'profile.age', op: '>', value: 70 },
        { key: 'topic', op: '=', value: 'login' },
      ]),
    ),
    await timeCase('filter profile.age > 70 (nested, alone)', runs, filtered([{ key: 'profile.age', op: '>', value: 70 }])),
    await timeCase(
      'filter profile.name contains "carol" (one session)',
      runs,
      filtered([{ key: 'profile.name', op: 'contains', value: 'carol' }]),
    ),
    await timeCase('filter profile.email exists', runs, filtered([{ key: 'profile.email', op: 'exists' }])),
    await timeCase('filter topic != "login"', runs, filtered([{ key: 'topic', op: '!=', value: 'login' }])),
  ];
}

const TOPICS = `CASE i % 5 WHEN 0 THEN 'refund' WHEN 1 THEN 'shipping' WHEN 2 THEN 'billing' WHEN 3 THEN 'login' ELSE 'other' END`;

/** Native SQLite: sessions, their state and events, inserted by SQL so the search triggers run per row. */
/** The session whose profile names Carol Nguyen (one in the whole app). */
function carolOf(scale: SearchScale): number {
  return Math.floor(scale.sessions * 0.7777);
}

export function loadNativeSqlite(path: string, scale: SearchScale): void {
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    const n = scale.sessions;
    const e = scale.eventsPerSession;
    db.transaction(() => {
      db.exec(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${n - 1})
        INSERT INTO sessions (app_name, user_id, id, revision, last_seq, create_time, update_time)
        SELECT '${SEARCH_APP}', printf('user-%05d', i / 10), printf('session-%06d', i), ${e}, ${e}, 1790000000 + i, 1790000000 + i + ${e} FROM n`);
      db.exec(`INSERT INTO session_state (session_pk, key, value)
        SELECT pk, 'topic', json_quote(${TOPICS.replace(/\bi\b/g, 'pk')}) FROM sessions`);
      db.exec(`INSERT INTO session_state (session_pk, key, value)
        SELECT pk, 'profile', json_object('name', CASE WHEN pk = ${carolOf(scale)} THEN 'Carol Nguyen' ELSE printf('Customer %d', pk) END,
          'email', printf('c%d@example.com', pk), 'age', 18 + pk % 60) FROM sessions`);
      db.exec(`WITH RECURSIVE k(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM k WHERE j < ${e})
        INSERT INTO events (session_pk, seq, id, invocation_id, author, timestamp, data)
        SELECT s.pk, k.j, printf('e-%d-%d', s.pk, k.j), printf('inv-%d', s.pk), CASE k.j % 2 WHEN 1 THEN 'user' ELSE 'agent' END,
          s.create_time + k.j,
          json_object('id', printf('e-%d-%d', s.pk, k.j), 'author', CASE k.j % 2 WHEN 1 THEN 'user' ELSE 'agent' END,
            'invocationId', printf('inv-%d', s.pk), 'timestamp', s.create_time + k.j,
            'content', json_object('role', 'user', 'parts', json_array(json_object('text', printf('Message %d about order %s', k.j, s.id)))),
            'actions', json_object('stateDelta', json_object()))
        FROM sessions s, k`);
    })();
  } finally {
    db.close();
  }
}

export async function loadNativePostgres(url: string, scale: SearchScale): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const n = scale.sessions;
    const e = scale.eventsPerSession;
    await client.query('BEGIN');
    await client.query(`INSERT INTO sessions (app_name, user_id, id, revision, last_seq, create_time, update_time)
      SELECT '${SEARCH_APP}', 'user-' || lpad((i / 10)::text, 5, '0'), 'session-' || lpad(i::text, 6, '0'), ${e}, ${e},
        1790000000 + i, 1790000000 + i + ${e} FROM generate_series(0, ${n - 1}) i`);
    await client.query(`INSERT INTO session_state (session_pk, key, value)
      SELECT pk, 'topic', to_json(${TOPICS.replace(/\bi\b/g, 'pk')})::text FROM sessions`);
    await client.query(`INSERT INTO session_state (session_pk, key, value)
      SELECT pk, 'profile', json_build_object('name', CASE WHEN pk = ${carolOf(scale)} THEN 'Carol Nguyen' ELSE 'Customer ' || pk END,
        'email', 'c' || pk || '@example.com', 'age', 18 + pk % 60)::text FROM sessions`);
    await client.query(`INSERT INTO events (session_pk, seq, id, invocation_id, author, timestamp, data)
      SELECT s.pk, k, 'e-' || s.pk || '-' || k, 'inv-' || s.pk, CASE k % 2 WHEN 1 THEN 'user' ELSE 'agent' END, s.create_time + k,
        json_build_object('id', 'e-' || s.pk || '-' || k, 'author', CASE k % 2 WHEN 1 THEN 'user' ELSE 'agent' END,
          'invocationId', 'inv-' || s.pk, 'timestamp', s.create_time + k,
          'content', json_build_object('role', 'user', 'parts', json_build_array(json_build_object('text', 'Message ' || k || ' about order ' || s.id))),
          'actions', json_build_object('stateDelta', json_build_object()))::text
      FROM sessions s, generate_series(1, ${e}) k`);
    await client.query('COMMIT');
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

/** An adk-python SqliteSessionService database of the same shape, in its layout. */
export function loadAdkSqlite(path: string, scale: SearchScale): void {
  const db = new Database(path);
  try {
    db.exec(PY_SQLITE_DDL);
    const n = scale.sessions;
    const e = scale.eventsPerSession;
    db.transaction(() => {
      db.exec(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${n - 1})
        INSERT INTO sessions (app_name, user_id, id, state, create_time, update_time)
        SELECT '${SEARCH_APP}', printf('user-%05d', i / 10), printf('session-%06d', i),
          json_object('topic', ${TOPICS}, 'profile', json_object('name', CASE WHEN i = ${carolOf(scale)} THEN 'Carol Nguyen' ELSE printf('Customer %d', i) END,
            'email', printf('c%d@example.com', i), 'age', 18 + i % 60)),
          1790000000 + i, 1790000000 + i + ${e} FROM n`);
      db.exec(`WITH RECURSIVE k(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM k WHERE j < ${e})
        INSERT INTO events (id, app_name, user_id, session_id, invocation_id, timestamp, event_data)
        SELECT printf('e-%s-%d', s.id, k.j), s.app_name, s.user_id, s.id, printf('inv-%s', s.id), s.create_time + k.j,
          json_object('id', printf('e-%s-%d', s.id, k.j), 'author', CASE k.j % 2 WHEN 1 THEN 'user' ELSE 'agent' END,
            'invocation_id', printf('inv-%s', s.id), 'timestamp', s.create_time + k.j,
            'content', json_object('role', 'user', 'parts', json_array(json_object('text', printf('Message %d about order %s', k.j, s.id)))),
            'actions', json_object('state_delta', json_object()))
        FROM sessions s, k`);
    })();
  } finally {
    db.close();
  }
}

/** The slowest of an unrelated request (the first app's summary) timed every 50 ms while `work` runs, and how many were timed. */
async function unrelatedWhile(store: SessionStore, work: Promise<unknown>): Promise<{ maxMs: number; p50Ms: number; n: number }> {
  let done = false;
  void work.finally(() => {
    done = true;
  });
  const times: number[] = [];
  while (!done) {
    const start = performance.now();
    await store.getAppSummary(SEARCH_APP);
    times.push(performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await work;
  return { maxMs: Math.max(0, ...times), p50Ms: times.length ? median(times) : 0, n: times.length };
}

const round1 = (ms: number) => Math.round(ms * 10) / 10;

/**
 * The index of Statehouse's own for the adk-python store, as the server runs
 * it (lib/stores/adk/base/search-follower.ts): the background fill, timed
 * with an unrelated request every 50 ms meanwhile; the header search through
 * it; following one changed session; and a restart, which resumes.
 */
async function ownIndexCases(agentPath: string, ownUrl: string, runs: number, log: (line: string) => void): Promise<SearchGroup> {
  const own = await openDatabase(ownUrl);
  const searchIndex = new StoreSearchIndex(own.client, own.provider);
  const open = (background: boolean) => openAdkStore(agentPath, { id: 'agent', searchIndex, follow: { background, pollMs: 2_000 } });
  try {
    const store = await open(true);
    const start = performance.now();
    const filled = (async () => {
      while (!store.searchFollower?.status()?.filled) await new Promise((resolve) => setTimeout(resolve, 200));
    })();
    const unrelated = await unrelatedWhile(store, filled);
    const fillSeconds = (performance.now() - start) / 1000;
    log(`search: own index filled in ${fillSeconds.toFixed(1)} s`);
    const found = (text: string) => async () => {
      const result = await store.find({ text, limit: 20 });
      return `${result.hits.length} hits${result.coverage ? `, searched ${result.coverage.searched} of ${result.coverage.total}` : ''}`;
    };
    const cases: SearchCase[] = [
      {
        name: 'background fill: unrelated request meanwhile',
        p50Ms: round1(unrelated.p50Ms),
        maxMs: round1(unrelated.maxMs),
        answer: `${unrelated.n} requests`,
      },
      await timeCase('find "Carol Nguyen" (one session)', runs, found('Carol Nguyen')),
      await timeCase('find "refund" (a fifth of the sessions)', runs, found('refund')),
      await timeCase('find "no such text"', runs, found('no such text')),
      await timeCase(`events "${OLD_SESSION_EVENTS}" (an old session's)`, runs, eventsFound(store, OLD_SESSION_EVENTS)),
    ];
    await store.close();

    // One changed session, written as the agent writes it, followed by a stopped store's follower step by step.
    const agent = new Database(agentPath);
    const now = Date.now() / 1000;
    agent
      .prepare('UPDATE sessions SET state = json_set(state, ?, ?), update_time = ? WHERE id = ?')
      .run('$.note', 'Zanzibar follow-up', now, 'session-000042');
    agent.close();
    const reopened = Date.now();
    const quiet = await open(false);
    try {
      const followStart = performance.now();
      await quiet.searchFollower?.settle();
      const followMs = performance.now() - followStart;
      const after = await quiet.find({ text: 'Zanzibar', limit: 20 });
      cases.push({
        name: 'restart, then follow one changed session',
        p50Ms: round1(followMs),
        maxMs: round1(Date.now() - reopened),
        answer: `${after.hits.length} hit, ${quiet.searchFollower?.status()?.indexed} sessions kept`,
      });
    } finally {
      await quiet.close();
    }
    const [docs] = await own.client.$queryRaw<{ n: unknown }[]>(sql`SELECT COUNT(*) AS n FROM search_docs WHERE store_id = 'agent'`);
    cases.push({ name: 'docs in the index', p50Ms: 0, maxMs: 0, answer: `${Number(docs?.n ?? 0)} docs` });
    return { label: 'adk-python sqlite, own index in Statehouse’s database (background fill)', loadSeconds: fillSeconds, cases };
  } finally {
    await own.close();
  }
}

export async function runSearchBench(
  providers: ('sqlite' | 'postgresql')[],
  scratch: Scratch,
  log: (line: string) => void,
  scale: SearchScale = SEARCH_SCALE,
  stores: readonly SearchStoreKind[] = ['native', 'adk'],
): Promise<SearchBenchResult> {
  const groups: SearchGroup[] = [];
  const events = scale.sessions * scale.eventsPerSession;
  for (const provider of stores.includes('native') ? providers : []) {
    const url = await scratch.url(provider, 'search');
    await migrateDatabase(url);
    log(`search: writing ${scale.sessions} sessions and ${events} events into the native store on ${provider}`);
    const start = performance.now();
    if (provider === 'sqlite') loadNativeSqlite(url.slice('file:'.length), scale);
    else await loadNativePostgres(url, scale);
    const loadSeconds = (performance.now() - start) / 1000;
    const services = await openServices(url, { migrate: false });
    try {
      log(`search: timing the native store on ${provider}`);
      groups.push({ label: `native, ${provider}`, loadSeconds, cases: await storeCases(services.store, scale.runs) });
    } finally {
      await services.close();
    }
  }
  if (!stores.includes('adk')) return { sessions: scale.sessions, events, groups };

  const agentUrl = await scratch.url('sqlite', 'search-adk-python');
  const agentPath = agentUrl.slice('file:'.length);
  log(`search: writing ${scale.sessions} sessions and ${events} events into an adk-python SQLite database`);
  const start = performance.now();
  loadAdkSqlite(agentPath, scale);
  const agentLoad = (performance.now() - start) / 1000;
  const store = await openAdkStore(agentPath);
  try {
    log('search: timing the bounded scan on the adk-python store');
    groups.push({ label: 'adk-python sqlite, bounded scan', loadSeconds: agentLoad, cases: await storeCases(store, scale.runs) });
  } finally {
    await store.close();
  }

  const ownUrl = await scratch.url('sqlite', 'search-own-index');
  await migrateDatabase(ownUrl);
  log('search: filling the index of Statehouse’s own for the adk-python store in the background');
  groups.push(await ownIndexCases(agentPath, ownUrl, scale.runs, log));
  return { sessions: scale.sessions, events, groups };
}

export function formatSearch(result: SearchBenchResult): string {
  const lines = [`Search at ${result.sessions.toLocaleString('en')} sessions and ${result.events.toLocaleString('en')} events`];
  for (const group of result.groups) {
    lines.push('', `${group.label} (data written in ${group.loadSeconds.toFixed(1)} s)`);
    for (const c of group.cases)
      lines.push(`  ${c.name.padEnd(50)} p50 ${String(c.p50Ms).padStart(8)} ms  max ${String(c.maxMs).padStart(8)} ms  ${c.answer}`);
  }
  return lines.join('\n');
}
