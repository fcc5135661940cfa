// The action builder's order of checks and what each refusal comes back as.
// Who is signed in comes from the request's cookies and the read-only switch
// from the environment, which only a running server has: both are set here.
import { z } from 'zod';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '../auth/roles';
import { sessionNotFound } from '../session-service/errors';
import { metricsText } from '../observability/metrics';
import { defineAction } from './define';

const revalidated = vi.hoisted(() => [] as unknown[][]);
vi.mock('next/cache', () => ({ revalidatePath: (...args: unknown[]) => revalidated.push(args) }));

const request = vi.hoisted(() => ({ role: 'support' as Role | null, readOnly: false }));
vi.mock('../config', () => ({ isReadOnly: () => request.readOnly }));
vi.mock('../current-principal', async () => {
  const { hasRole } = await import('../auth/roles');
  const { forbidden, unauthenticated } = await import('../auth/errors');
  return {
    requireRole: async (role: Role) => {
      if (request.role === null) throw unauthenticated();
      if (!hasRole(request.role, role)) throw forbidden(role);
      return { name: 'someone', role: request.role, via: 'session' };
    },
  };
});

afterEach(() => {
  revalidated.length = 0;
  request.role = 'support';
  request.readOnly = false;
});

const ran: unknown[] = [];
const rename = defineAction({
  name: 'rename',
  role: 'support',
  input: z.object({ name: z.string({ error: 'must be a string' }).trim().min(1, 'is required') }),
  run: async (input, principal) => {
    ran.push(input);
    if (input.name === 'missing') throw sessionNotFound('s1');
    if (input.name === 'broken') throw new Error('a bug');
    return { ok: true, data: `${principal.name} renamed it to ${input.name}` };
  },
  revalidate: (input, result) => result.ok && [`/things/${input.name}`, 'layout'],
});

/** The count of one action's outcome in the metrics, 0 when absent. */
async function counted(action: string, outcome: string): Promise<number> {
  const series = `statehouse_server_action_duration_seconds_count{action="${action}",outcome="${outcome}"} `;
  const line = (await metricsText()).body.split('\n').find((candidate) => candidate.startsWith(series));
  return line === undefined ? 0 : Number(line.slice(series.length));
}

describe('defineAction', () => {
  it('times every call into the metrics by action and outcome (ok, or the refusal code)', async () => {
    const before = { ok: await counted('rename', 'ok'), invalid: await counted('rename', 'INVALID_INPUT') };
    await rename({ name: 'tea' });
    await rename({ name: '' });
    await rename({ name: 'missing' });
    expect(await counted('rename', 'ok')).toBe(before.ok + 1);
    expect(await counted('rename', 'INVALID_INPUT')).toBe(before.invalid + 1);
    expect(await counted('rename', 'NOT_FOUND')).toBeGreaterThanOrEqual(1);
  });

  it('runs the write on the parsed input as the signed-in principal and re-renders what it names', async () => {
    expect(await rename({ name: ' tea ' })).toEqual({ ok: true, data: 'someone renamed it to tea' });
    expect(ran.at(-1)).toEqual({ name: 'tea' });
    expect(revalidated).toEqual([['/things/tea', 'layout']]);
  });

  it('refuses a read-only console before asking who is signed in, whatever the input', async () => {
    request.readOnly = true;
    request.role = null;
    const count = ran.length;
    expect(await rename({ name: '' })).toMatchObject({ ok: false, code: 'READ_ONLY' });
    expect(ran.length).toBe(count);
    expect(revalidated).toEqual([]);
  });

  it('checks the role before the input, so a stranger learns nothing from the validation', async () => {
    request.role = null;
    expect(await rename({ name: '' })).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    request.role = 'viewer';
    expect(await rename({ name: '' })).toMatchObject({ ok: false, code: 'FORBIDDEN', message: 'Forbidden: this needs the support role.' });
  });

  it('answers bad input with messages by field, without running the write', async () => {
    const count = ran.length;
    expect(await rename({ name: '  ' })).toEqual({
      ok: false,
      code: 'INVALID_INPUT',
      message: 'Some fields need attention.',
      fieldErrors: { name: 'is required' },
    });
    expect(await rename(null as never)).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(ran.length).toBe(count);
  });

  it('answers a domain error with its code and a bug with INTERNAL, re-rendering nothing', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await rename({ name: 'missing' })).toEqual({ ok: false, code: 'NOT_FOUND', message: 'Session s1 not found.' });
    expect(await rename({ name: 'broken' })).toMatchObject({ ok: false, code: 'INTERNAL' });
    expect(revalidated).toEqual([]);
  });

  it('takes the role and the schema from the raw input when they depend on it', async () => {
    const edit = defineAction({
      name: 'edit',
      role: (raw) => ((raw as { scope?: unknown }).scope === 'user' ? 'support' : 'admin'),
      input: (raw) =>
        (raw as { scope?: unknown }).scope === 'user'
          ? z.object({ scope: z.literal('user'), user: z.string() })
          : z.object({ scope: z.literal('app'), app: z.string() }),
      run: async (input) => ({ ok: true, data: input }),
    });
    expect(await edit({ scope: 'user', user: 'u' })).toEqual({ ok: true, data: { scope: 'user', user: 'u' } });
    expect(await edit({ scope: 'app', app: 'a' })).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    request.role = 'admin';
    expect(await edit({ scope: 'app', user: 'u' } as never)).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      fieldErrors: { app: expect.any(String) },
    });
  });
});
