// A live adk-python agent's writes to its SQLite file, as a process of its
// own (the console's driver is synchronous: in one process the two could not
// contend for the file's locks as they do in production). Each turn is one
// deferred transaction that reads the session, then appends an event as
// SqliteSessionService does, with a 1 s busy wait (adk-js's; Python's is 5 s):
// a reader holding the file for longer, or holding RESERVED when the turn
// upgrades from reading to writing, fails it with SQLITE_BUSY.
// Argument: JSON { path, appName, userId, sessionId, durationMs }; prints
// "ready" once open, then one JSON line { ok, busy, other } when done.
import Database from 'better-sqlite3';
import { appendAsSqliteSessionService } from './adk-fixtures/python-sqlite';

interface WriterJob {
  path: string;
  appName: string;
  userId: string;
  sessionId: string;
  durationMs: number;
}

export interface WriterTally {
  ok: number;
  busy: number;
  other: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(job: WriterJob): Promise<void> {
  const db = new Database(job.path, { timeout: 1_000 });
  db.pragma('foreign_keys = ON');
  const tally: WriterTally = { ok: 0, busy: 0, other: 0 };
  const ref = { appName: job.appName, userId: job.userId, sessionId: job.sessionId };
  const turn = db.transaction((n: number) => {
    db.prepare('SELECT update_time FROM sessions WHERE app_name = ? AND user_id = ? AND id = ?').get(
      ref.appName,
      ref.userId,
      ref.sessionId,
    );
    const timestamp = Date.now() / 1000;
    appendAsSqliteSessionService(db, ref, {
      id: `live-${process.pid}-${n}`,
      invocation_id: `live-${n}`,
      author: 'agent',
      timestamp,
      content: { role: 'model', parts: [{ text: `turn ${n}` }] },
      actions: { state_delta: { turns: n } },
    });
  });
  process.stdout.write('ready\n');
  const until = Date.now() + job.durationMs;
  for (let n = 0; Date.now() < until; n += 1) {
    try {
      turn(n);
      tally.ok += 1;
    } catch (error) {
      const code = error instanceof Database.SqliteError ? error.code : '';
      if (code.startsWith('SQLITE_BUSY')) tally.busy += 1;
      else tally.other += 1;
    }
    await sleep(5);
  }
  db.close();
  process.stdout.write(`${JSON.stringify(tally)}\n`);
}

await main(JSON.parse(process.argv[2] ?? '{}') as WriterJob);
