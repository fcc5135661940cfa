// Seeds a SQLite database with one app of many sessions (default 100,000),
// written with raw inserts because going through the service would take hours.
// Used to check that the dashboard's list pages stay fast at that size:
//
//   DATABASE_URL=file:./.data/scale.db npx tsx scripts/seed-list-scale.ts [sessions]
//   DATABASE_URL=file:./.data/scale.db npx next start --port 3201
//   curl -s -o /dev/null -w '%{time_starttransfer}\n' http://127.0.0.1:3201/apps/scale-app
//
// The shape: users with 20 sessions each, four session keys per session (one
// of them, `escalated`, on one session in a thousand), two user keys per user
// and a few app keys, times spread over 90 days. Re-running on a seeded
// database adds nothing. No ANALYZE: a deployed database has no planner
// statistics either, so the timings are the ones operators get.
import Database from 'better-sqlite3';
import { databaseUrl } from '../lib/config';
import { providerOf, sqliteFilePath } from '../lib/db';
import { migrateDatabase } from '../lib/migrate/index';

export const SCALE_APP = 'scale-app';
const SESSIONS_PER_USER = 20;
const TOPICS = ['billing', 'refund', 'shipping', 'login', 'upgrade', 'bug', 'feedback', 'cancel'];
const PLANS = ['free', 'pro', 'enterprise'];

const url = databaseUrl();
const total = Number(process.argv[2] ?? 100_000);
if (providerOf(url) !== 'sqlite') throw new Error('seed-list-scale writes SQLite files only (DATABASE_URL=file:...).');
if (!Number.isSafeInteger(total) || total < 1) throw new Error(`Not a session count: ${process.argv[2]}`);

await migrateDatabase(url);
const db = new Database(sqliteFilePath(url));
db.pragma('journal_mode = WAL');

const existing = db.prepare('SELECT COUNT(*) AS n FROM sessions WHERE app_name = ?').get(SCALE_APP) as { n: number };
if (existing.n > 0) {
  console.log(`${SCALE_APP} already has ${existing.n} sessions; nothing added.`);
} else {
  const started = performance.now();
  // A fixed seed keeps two runs' databases, and so their timings, comparable.
  let seed = 42;
  const random = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const hex = (length: number) => Array.from({ length }, () => Math.floor(random() * 16).toString(16)).join('');
  const now = Date.now() / 1000;
  const ninetyDays = 90 * 24 * 3600;

  const insertSession = db.prepare(
    `INSERT INTO sessions (app_name, user_id, id, revision, last_seq, create_time, update_time)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertSessionState = db.prepare('INSERT INTO session_state (session_pk, key, value) VALUES (?, ?, ?)');
  const insertUserState = db.prepare('INSERT INTO user_state (app_name, user_id, key, value, update_time) VALUES (?, ?, ?, ?, ?)');
  const insertAppState = db.prepare('INSERT INTO app_state (app_name, key, value, update_time) VALUES (?, ?, ?, ?)');

  db.transaction(() => {
    const appKeys = { model: 'gemini-2.5-flash', max_turns: 40, greeting: 'Hello! How can I help?', flags: { beta: true } };
    for (const [key, value] of Object.entries(appKeys)) insertAppState.run(SCALE_APP, key, JSON.stringify(value), now);
    const users = Math.ceil(total / SESSIONS_PER_USER);
    for (let u = 0; u < users; u++) {
      const userId = `user-${String(u).padStart(6, '0')}`;
      insertUserState.run(SCALE_APP, userId, 'plan', JSON.stringify(PLANS[u % PLANS.length]), now - random() * ninetyDays);
      insertUserState.run(SCALE_APP, userId, 'name', JSON.stringify(`Customer ${u}`), now - random() * ninetyDays);
      for (let i = 0; i < SESSIONS_PER_USER && u * SESSIONS_PER_USER + i < total; i++) {
        const created = now - random() * ninetyDays;
        const updated = Math.min(now, created + random() * 3600);
        const events = 1 + Math.floor(random() * 60);
        const id = `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`;
        const { lastInsertRowid } = insertSession.run(SCALE_APP, userId, id, events, events, created, updated);
        const pk = Number(lastInsertRowid);
        insertSessionState.run(pk, 'topic', JSON.stringify(TOPICS[Math.floor(random() * TOPICS.length)]));
        insertSessionState.run(pk, 'turns', JSON.stringify(Math.floor(events / 2)));
        insertSessionState.run(pk, 'status', JSON.stringify(random() < 0.9 ? 'closed' : 'open'));
        if (random() < 0.001) insertSessionState.run(pk, 'escalated', 'true');
      }
    }
  }).immediate();
  console.log(`Seeded ${total} sessions in ${SCALE_APP} in ${Math.round(performance.now() - started)} ms.`);
}
db.close();
