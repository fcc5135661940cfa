// A console write to an agent's SQLite file while an agent process is in a
// read transaction it is about to turn into a write (as adk-js, adk-python and
// adk-rust append): the console must not try to take the file until the agent
// lets go, in rollback-journal and WAL files, so the agent's write succeeds.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { metricsText } from '../../observability/metrics';
import { writeAdkFixture } from '../../testing/adk-fixtures/stores';
import { APP, SESSIONS } from '../../testing/adk-fixtures/scenario';
import { openAdkStore, type AdkSessionStore } from '.';
import { lockTableView } from './sqlite-lock-table';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

// The agent: reads in a deferred transaction, says so, holds its read for `holdMs`, then writes and commits.
const AGENT = `
const Database = require('better-sqlite3');
const [path, holdMs] = process.argv.slice(1);
const db = new Database(path, { timeout: 1000 });
db.exec('BEGIN');
db.prepare('SELECT count(*) FROM sessions').get();
process.stdout.write('reading\\n');
setTimeout(() => {
  try {
    db.prepare("UPDATE app_states SET state = state WHERE app_name = ?").run(process.argv[3]);
    db.exec('COMMIT');
    process.stdout.write('wrote\\n');
  } catch (error) {
    process.stdout.write('failed ' + error.code + '\\n');
  }
}, Number(holdMs));
`;

function agentReadingThenWriting(path: string, holdMs: number): { reading: Promise<void>; outcome: Promise<string> } {
  const child = spawn(process.execPath, ['-e', AGENT, path, String(holdMs), APP], { cwd: ROOT });
  let out = '';
  let onReading: () => void = () => undefined;
  const reading = new Promise<void>((resolve) => (onReading = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.includes('reading')) onReading();
  });
  const outcome = new Promise<string>((resolve) => child.on('exit', () => resolve(out.trim().split('\n').pop() ?? '')));
  return { reading, outcome };
}

type Tries = Record<'taken' | 'waited' | 'busy', number>;

async function tries(): Promise<Tries> {
  const { body } = await metricsText();
  const count = (outcome: keyof Tries) =>
    Number(new RegExp(`^statehouse_agent_sqlite_write_tries_total\\{outcome="${outcome}"\\} (\\d+)`, 'm').exec(body)?.[1] ?? 0);
  return { taken: count('taken'), waited: count('waited'), busy: count('busy') };
}

const supported = lockTableView(fileURLToPath(import.meta.url), 'delete') !== undefined;

describe.runIf(supported).each([
  ['a rollback-journal file', false],
  ['a WAL file', true],
])('a console write while an agent process reads to write, in %s', (_name, wal) => {
  let store: AdkSessionStore | undefined;
  let remove: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await store?.close();
    await remove?.();
  });

  it('waits without trying until the agent has written', async () => {
    const fixture = await writeAdkFixture({ family: 'py-sqlite', wal });
    remove = fixture.remove;
    store = await openAdkStore(fixture.locator);
    const session = SESSIONS[0];
    if (!session) throw new Error('The scenario has no session.');
    const ref = { appName: APP, userId: session.userId, sessionId: session.sessionId };

    const agent = agentReadingThenWriting(fixture.locator, 400);
    await agent.reading;
    const before = await tries();
    await store.append(ref, { author: 'operator', actions: { stateDelta: { 'app:seen': 1 } } }, { actor: 'console' });
    const after = await tries();

    expect(await agent.outcome).toBe('wrote');
    expect(after.busy - before.busy).toBe(0);
    expect(after.waited - before.waited).toBeGreaterThan(0);
    expect(after.taken - before.taken).toBe(1);
  });
});
