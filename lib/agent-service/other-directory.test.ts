// An agent's own project installs Statehouse from a packed tarball, imports the
// drop-in as `statehouse/adk` and runs from its own directory, without
// STATEHOUSE_ROOT: the package export must resolve in the installed copy and
// the migrations must be found next to the module, not in the working directory.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

describe('statehouse/adk installed in another project', () => {
  const project = mkdtempSync(join(tmpdir(), 'statehouse-agent-'));
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  beforeAll(async () => {
    // The tarball as npm would install it; its dependencies are this tree's (as if hoisted).
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], { cwd: root });
    const [packed] = JSON.parse(stdout) as { filename: string }[];
    const modules = join(project, 'node_modules');
    mkdirSync(join(modules, 'statehouse'), { recursive: true });
    await run('tar', ['-xzf', join(project, packed?.filename ?? ''), '-C', join(modules, 'statehouse'), '--strip-components=1']);
    for (const entry of readdirSync(join(root, 'node_modules'))) {
      if (!entry.startsWith('.')) symlinkSync(join(root, 'node_modules', entry), join(modules, entry));
    }
  }, 120_000);

  it('migrates a new SQLite file and round-trips a session, under both names', async () => {
    writeFileSync(
      join(project, 'agent.mjs'),
      `import { createEvent } from '@google/adk';
import { StatehouseSessionService, PrismaSessionService, HttpSessionService } from 'statehouse/adk';
if (PrismaSessionService !== StatehouseSessionService) throw new Error('the deprecated alias is another class');
if (typeof HttpSessionService !== 'function') throw new Error('no HttpSessionService');
const sessions = new StatehouseSessionService({ databaseUrl: 'file:./agent.db' });
const session = await sessions.createSession({ appName: 'agent', userId: 'u1', state: { 'user:plan': 'pro' } });
await sessions.appendEvent({ session, event: createEvent({ author: 'agent', actions: { stateDelta: { step: 1 } } }) });
const loaded = await sessions.getSession({ appName: 'agent', userId: 'u1', sessionId: session.id });
const listed = await sessions.listSessions({ appName: 'agent', userId: 'u1', limit: 10 });
console.log(JSON.stringify({ state: loaded.state, events: loaded.events.length, listed: listed.totalItems }));
await sessions.close();
`,
    );
    const env = { ...process.env };
    delete env.STATEHOUSE_ROOT;
    delete env.DATABASE_URL;
    const { stdout } = await run(process.execPath, ['--import', tsx, 'agent.mjs'], { cwd: project, env });
    expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? '')).toEqual({
      state: { 'user:plan': 'pro', step: 1 },
      events: 1,
      listed: 1,
    });
  }, 60_000);
});
