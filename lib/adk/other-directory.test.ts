// An agent's own project imports PrismaSessionService from this tree and runs
// from its own directory, without STATEHOUSE_ROOT: the migrations must be
// found next to the module, not in the working directory.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const service = pathToFileURL(fileURLToPath(new URL('./prisma-session-service.ts', import.meta.url))).href;
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

describe('PrismaSessionService from another working directory', () => {
  const project = mkdtempSync(join(tmpdir(), 'statehouse-agent-'));
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('migrates a new SQLite file and round-trips a session', async () => {
    writeFileSync(
      join(project, 'agent.mjs'),
      `import { createEvent } from ${JSON.stringify(pathToFileURL(createRequire(import.meta.url).resolve('@google/adk')).href)};
const { PrismaSessionService } = await import(${JSON.stringify(service)});
const sessions = new PrismaSessionService({ databaseUrl: 'file:./agent.db' });
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
  });
});
