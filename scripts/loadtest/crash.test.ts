// kill -9 in the middle of appends leaves no half-written event: a child
// process appends through the session service (several writers, every tier,
// temp: keys) and is SIGKILLed mid-stream, twice per database; then every
// append it reported is stored, every stored event is whole (checkIntegrity),
// and the database takes new appends.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sqltag as sql } from '@prisma/client/runtime/client';
import { describe, expect, it } from 'vitest';
import { testProviders } from '../../lib/testing/databases';
import { useTestDatabase } from '../../lib/testing/use-test-database';
import { checkIntegrity } from './integrity';
import { appendEvent } from '../../lib/session-service/append';
import { readIsolation } from '../../lib/stores/native/dialect';

const providers = await testProviders();
const WORKER = fileURLToPath(new URL('./crash-worker.ts', import.meta.url));
const APP = 'crash';
const WRITERS = 4;

interface Run {
  acked: Map<string, string[]>;
  created: Set<string>;
  exitSignal: NodeJS.Signals | null;
}

/** Starts the worker, lets it append for `millis` after its first ack, then kills it with SIGKILL. */
function appendThenKill(url: string, round: string, millis: number): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, url, APP, String(WRITERS), round], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run: Run = { acked: new Map(), created: new Set(), exitSignal: null };
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let timer: NodeJS.Timeout | undefined;
  createInterface({ input: child.stdout }).on('line', (line) => {
    const [what, sessionId = '', eventId = ''] = line.split(' ');
    if (what === 'created') run.created.add(sessionId);
    if (what !== 'ack') return;
    run.acked.set(sessionId, [...(run.acked.get(sessionId) ?? []), eventId]);
    timer ??= setTimeout(() => child.kill('SIGKILL'), millis);
  });
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the worker never appended anything: ${stderr}`));
    }, 30_000);
    child.on('exit', (code, signal) => {
      clearTimeout(deadline);
      clearTimeout(timer);
      run.exitSignal = signal;
      if (signal !== 'SIGKILL') reject(new Error(`the worker exited by itself (code ${code}): ${stderr}`));
      else resolve(run);
    });
  });
}

describe.each(providers)('kill -9 during appends on %s', (provider) => {
  const database = useTestDatabase(provider);
  // One snapshot: the killed worker's last append (one statement on PostgreSQL) may still be
  // committing on the server while the checker reads values, then history.
  const integrityNow = () => database.db.client.$transaction((tx) => checkIntegrity(tx, APP), readIsolation(provider));

  it.each([
    ['first', 400],
    ['second', 750],
  ])('%s kill: every reported append is stored whole, and appends go on', async (round, millis) => {
    const run = await appendThenKill(database.url, round, millis);
    expect(run.exitSignal).toBe('SIGKILL');
    const ackCount = [...run.acked.values()].reduce((sum, ids) => sum + ids.length, 0);
    expect(ackCount).toBeGreaterThan(WRITERS);

    const report = await integrityNow();
    expect(report.problems).toEqual([]);

    for (const [sessionId, ids] of run.acked) {
      const rows = await database.db.client.$queryRaw<{ id: string }[]>(
        sql`SELECT e.id FROM events e JOIN sessions s ON s.pk = e.session_pk WHERE s.app_name = ${APP} AND s.id = ${sessionId} ORDER BY e.seq`,
      );
      const stored = rows.map((row) => row.id);
      // Everything reported is there, in order; at most one more (committed, killed before it was reported).
      expect(stored.slice(0, ids.length)).toEqual(ids);
      expect(stored.length - ids.length).toBeLessThanOrEqual(1);
    }

    // "Restart": a new connection appends to every session the dead process wrote.
    for (const sessionId of run.created) {
      const writer = Number(sessionId.split('-').at(-1));
      const ref = { appName: APP, userId: `user-${writer % 2}`, sessionId };
      const session = await database.service.getSession(ref, { numRecentEvents: 0 });
      expect(session, sessionId).not.toBeNull();
      await appendEvent(database.service, session!, { author: 'after-restart', actions: { stateDelta: { resumed: true } } });
    }
    expect((await integrityNow()).problems).toEqual([]);
  });
});
