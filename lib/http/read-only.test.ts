// Read-only mode (STATEHOUSE_READ_ONLY=1) at every write door, found by
// enumeration so a new door cannot be forgotten: every write method of every
// /api route file (the routes Next serves) answers 403 with a detail, every
// exported server action refuses with READ_ONLY, and nothing is written.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { databaseDump, detailOf, call } from '../testing/http';
import { useTestDatabase } from '../testing/use-test-database';
import { API } from './api/table';
import { isGeneratedMethodHandler } from './methods';

vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const root = join(import.meta.dirname, '..', '..');
const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** Doors with a write method that write nothing: a template preview, and the JSON 404 for paths without a route. */
// The catch-alls: no route's 404, and another store's API (the table's own handlers, refused above).
const NOT_WRITES = new Set([
  'POST /api/render',
  ...WRITE_METHODS.map((method) => `${method} /api/[...path]`),
  ...WRITE_METHODS.map((method) => `${method} /api/stores/[store]/[...path]`),
]);
/** The actions that must work in read-only mode: signing in and out. */
const OPEN_ACTIONS = new Set(['signIn', 'signOut']);

function filesNamed(dir: string, name: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.split(sep).at(-1) === name)
    .map((file) => join(dir, file));
}

const ref = { appName: 'ro-app', userId: 'ro-user', sessionId: 'ro-session' };
const PARAM_VALUES: Record<string, string | string[]> = {
  app: ref.appName,
  user: ref.userId,
  id: ref.sessionId,
  seq: '1',
  note: '1',
  path: ['x'],
};

/** `/api/apps/[app]/state` (a route folder) or `/api/apps/:app/state` (a table pattern) with its parameters filled in, as Next would pass them. */
function requestFor(template: string): { path: string; params: Record<string, string | string[]> } {
  const params: Record<string, string | string[]> = {};
  const path = template.replace(/\[(?:\.\.\.)?(\w+)\]|:(\w+)/g, (_whole, folder: string | undefined, pattern: string | undefined) => {
    const name = folder ?? pattern ?? '';
    const value = PARAM_VALUES[name];
    if (value === undefined) throw new Error(`No test value for the route parameter [${name}] in ${template}.`);
    params[name] = value;
    return [value].flat().map(encodeURIComponent).join('/');
  });
  return { path, params };
}

describe('read-only mode', () => {
  const database = useTestDatabase('sqlite', { serveRoutes: true });
  const saved = process.env.STATEHOUSE_READ_ONLY;
  let before: Record<string, string[]>;

  beforeAll(async () => {
    process.env.STATEHOUSE_READ_ONLY = '1';
    await database.service.createSession({ ...ref, state: { 'user:plan': 'free' } });
    before = await databaseDump(database);
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.STATEHOUSE_READ_ONLY;
    else process.env.STATEHOUSE_READ_ONLY = saved;
  });

  async function expectRefused(door: string, handler: Parameters<typeof call>[0], method: string, template: string): Promise<void> {
    const { path, params } = requestFor(template);
    const result = await call(handler, method, { path, params, body: { state: { a: 1 } } });
    expect({ door, status: result.status, detail: detailOf(result) }).toEqual({
      door,
      status: 403,
      detail: expect.stringContaining('read-only') as unknown,
    });
  }

  it('refuses every write method of the route table with 403 and a detail', async () => {
    const refused: string[] = [];
    for (const [pattern, methods] of Object.entries(API)) {
      for (const [method, handler] of Object.entries(methods as Record<string, Parameters<typeof call>[0]>)) {
        if (!(WRITE_METHODS as readonly string[]).includes(method) || NOT_WRITES.has(`${method} ${pattern}`)) continue;
        await expectRefused(`${method} ${pattern}`, handler, method, pattern);
        refused.push(`${method} ${pattern}`);
      }
    }
    expect(refused.length).toBeGreaterThan(15);
    expect(refused).toContain('POST /api/apps/:app/users/:user/sessions/:id/events');
    expect(await databaseDump(database)).toEqual(before);
  });

  it('refuses every write method of every /api route file Next serves with 403 and a detail', async () => {
    const refused: string[] = [];
    for (const file of filesNamed(join(root, 'app', 'api'), 'route.ts')) {
      const template = '/' + relative(join(root, 'app'), file).split(sep).slice(0, -1).join('/');
      const exports = (await import(file)) as Record<string, unknown>;
      for (const method of WRITE_METHODS) {
        const handler = exports[method];
        if (typeof handler !== 'function' || isGeneratedMethodHandler(handler) || NOT_WRITES.has(`${method} ${template}`)) continue;
        await expectRefused(`${method} ${template}`, handler as Parameters<typeof call>[0], method, template);
        refused.push(`${method} ${template}`);
      }
    }
    // The enumeration found the doors (appends, state edits, forks, imports, deletes ...).
    expect(refused.length).toBeGreaterThan(15);
    expect(refused).toContain('POST /api/apps/[app]/users/[user]/sessions/[id]/events');
    expect(await databaseDump(database)).toEqual(before);
  });

  it('refuses every exported server action with READ_ONLY, signing in and out aside', async () => {
    const refused: string[] = [];
    for (const file of readdirSync(join(root, 'lib', 'actions')).map((name) => join(root, 'lib', 'actions', name))) {
      if (!file.endsWith('.ts') || !/^\s*['"]use server['"]/.test(readFileSync(file, 'utf8'))) continue;
      const exports = (await import(file)) as Record<string, unknown>;
      for (const [name, action] of Object.entries(exports)) {
        if (typeof action !== 'function' || OPEN_ACTIONS.has(name)) continue;
        const result = (await (action as (input: unknown) => Promise<unknown>)({ ...ref, scope: 'user', changes: [], revision: 0 })) as {
          code?: string;
        };
        expect({ action: name, code: result.code }).toEqual({ action: name, code: 'READ_ONLY' });
        refused.push(name);
      }
    }
    expect(refused).toEqual(expect.arrayContaining(['appendEvent', 'editState', 'forkSession', 'pruneSessions', 'createAccount']));
    expect(await databaseDump(database)).toEqual(before);
  });
});
