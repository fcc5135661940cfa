// `npm run open` on a port that is taken says so in words, before building or
// serving anything (not "Serving it on..." and then a raw EADDRINUSE).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP, SESSIONS, writePythonSqliteStore } from '../lib/testing/adk-fixtures';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'statehouse-open-'));
let holder: Server;
let port: number;

beforeAll(async () => {
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen({ host: '127.0.0.1', port: 0 }, resolve));
  port = (holder.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => holder.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run open', () => {
  it('names a port in use and how to choose another, and serves nothing', async () => {
    const store = join(dir, 'session.db');
    writePythonSqliteStore(store, APP, SESSIONS);
    const outcome = await run(process.execPath, ['--import', 'tsx', 'scripts/open.ts', store], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: `file:${join(dir, 'statehouse.db')}`,
        NEXT_DIST_DIR: join(dir, 'no-build'),
      },
      timeout: 120_000,
    }).then(
      () => ({ code: 0, stdout: '', stderr: '' }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    expect(outcome.stderr).toContain(`PORT=${port + 1}`);
    expect(outcome.stderr).not.toContain('EADDRINUSE');
    expect(outcome.stdout).not.toContain('Serving it on');
    expect(outcome.stdout).not.toContain('Building the console');
  });
});
