// The kit's webServer entry and test server (statehouse/playwright/config,
// statehouse-test-server): a deployment in STATEHOUSE_URL means no embedded
// console; Playwright stops the embedded one gracefully, so it removes its
// database; and databases a killed run left behind are removed at the next start.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { statehouseWebServer } from '../../playwright/web-server';

const run = promisify(execFile);
const serve = fileURLToPath(new URL('../../playwright/serve.mjs', import.meta.url));

describe('statehouseWebServer', () => {
  const saved = process.env.STATEHOUSE_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.STATEHOUSE_URL;
    else process.env.STATEHOUSE_URL = saved;
  });

  it('starts no console when STATEHOUSE_URL names a deployment, and waits for the deployment instead', () => {
    process.env.STATEHOUSE_URL = 'https://statehouse.example/';
    const entry = statehouseWebServer({ port: 4899 });
    expect(entry.url).toBe('https://statehouse.example/api/list-apps');
    expect(entry.reuseExistingServer).toBe(true);
    expect(entry.command).not.toContain('serve.mjs');
    expect(process.env.STATEHOUSE_URL).toBe('https://statehouse.example/');
  });

  it('starts the embedded console otherwise, stopped with SIGTERM so it can remove its database', () => {
    delete process.env.STATEHOUSE_URL;
    const entry = statehouseWebServer({ port: 4899 });
    expect(entry.command).toContain('serve.mjs');
    expect(entry.gracefulShutdown.signal).toBe('SIGTERM');
    expect(process.env.STATEHOUSE_URL).toBe('http://127.0.0.1:4899');
  });
});

describe('statehouse-test-server', () => {
  it('removes the databases of servers that are gone when it starts, and keeps those of running ones', async () => {
    const temp = mkdtempSync(join(tmpdir(), 'statehouse-reaper-'));
    try {
      const dead = join(temp, `statehouse-test-1-${2 ** 22 + 12345}.db`);
      const live = join(temp, `statehouse-test-1-${process.pid}.db`);
      for (const file of [dead, `${dead}-wal`, live]) writeFileSync(file, '');
      // An invalid port stops the server right after the reaper, before any build.
      const result = await run(process.execPath, [serve, '--port', 'none'], { env: { ...process.env, TMPDIR: temp } }).catch(
        (error: { code?: number }) => error,
      );
      expect((result as { code?: number }).code).toBe(2);
      expect([existsSync(dead), existsSync(`${dead}-wal`), existsSync(live)]).toEqual([false, false, true]);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
