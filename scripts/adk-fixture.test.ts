// `npm run adk:fixture` offers every kind the registry has, and what each
// writes is a store Statehouse opens with the scenario in it.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openAdkStore } from '../lib/stores/adk';
import { ADK_FIXTURE_WRITERS, APP, fixturePresets, fixtureWriter, SESSIONS, type AdkFixtureFamily } from '../lib/testing/adk-fixtures';

const run = promisify(execFile);
const script = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'scripts/adk-fixture.ts', ...args]);
const dir = mkdtempSync(join(tmpdir(), 'statehouse-adk-fixture-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run adk:fixture', () => {
  it('lists a kind of every family in the registry', async () => {
    const usage = await script().then(
      () => '',
      (error: { stderr: string; code: number }) => (expect(error.code).toBe(2), error.stderr),
    );
    const offered = [...fixturePresets().keys()];
    for (const kind of offered) expect(usage).toContain(`  ${kind} `);
    const families = new Set([...fixturePresets().values()].map((kind) => kind.family));
    expect([...families].sort()).toEqual((Object.keys(ADK_FIXTURE_WRITERS) as AdkFixtureFamily[]).sort());
    expect(offered).toEqual(expect.arrayContaining(['py-sqlite', 'py-db-utc', 'adk-js', 'adk-rust']));
  });

  const onSqlite = [...fixturePresets()].filter(
    ([, kind]) => (kind.dialect ?? fixtureWriter(kind).dialects[0]) === 'sqlite' && !('v0' in kind),
  );
  it.each(onSqlite)('%s writes a store Statehouse opens', async (name) => {
    const path = join(dir, `${name}.db`);
    const { stdout } = await script(name, path);
    expect(stdout).toContain(`to ${path}`);
    const store = await openAdkStore(path);
    try {
      expect((await store.listSessions({ appName: APP, limit: 0 })).total).toBe(SESSIONS.length);
    } finally {
      await store.close();
    }
  });

  it('refuses a kind on a database it is not written to', async () => {
    await expect(script('py-db-tz', join(dir, 'tz.db'))).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('postgresql') });
  });
});
