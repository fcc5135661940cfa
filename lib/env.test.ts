// env() follows every change to the environment, yet an unchanged one is
// not read again variable by variable on every call (each read asks the C
// library, and an API request asks for the configuration several times).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { env, watchEnvironmentWrites } from './env';

describe('env()', () => {
  let saved: NodeJS.ProcessEnv;
  beforeEach(() => {
    saved = process.env;
    process.env = { ...saved };
    delete process.env.STATEHOUSE_READ_ONLY;
  });
  afterEach(() => {
    process.env = saved;
    vi.useRealTimers();
  });

  it('sees a variable set, changed or removed after a call at once', () => {
    expect(env().STATEHOUSE_READ_ONLY).toBe(false);
    process.env.STATEHOUSE_READ_ONLY = '1';
    expect(env().STATEHOUSE_READ_ONLY).toBe(true);
    Object.assign(process.env, { STATEHOUSE_READ_ONLY: '0' });
    expect(env().STATEHOUSE_READ_ONLY).toBe(false);
    process.env.STATEHOUSE_READ_ONLY = 'yes';
    expect(env().STATEHOUSE_READ_ONLY).toBe(true);
    delete process.env.STATEHOUSE_READ_ONLY;
    expect(env().STATEHOUSE_READ_ONLY).toBe(false);
  });

  it('sees a replaced process.env at once', () => {
    expect(env().STATEHOUSE_READ_ONLY).toBe(false);
    process.env = { ...process.env, STATEHOUSE_READ_ONLY: '1' };
    expect(env().STATEHOUSE_READ_ONLY).toBe(true);
  });

  it('is the same object while nothing changes', () => {
    const first = env();
    expect(env()).toBe(first);
    process.env.STATEHOUSE_MAX_BODY_BYTES = '1000';
    expect(env()).not.toBe(first);
  });

  it('leaves process.env as it is in a process that did not ask for the wrapping (an agent running lib/agent-service)', () => {
    const own = process.env;
    env();
    process.env.STATEHOUSE_READ_ONLY = '1';
    expect(env().STATEHOUSE_READ_ONLY).toBe(true);
    expect(process.env).toBe(own);
  });

  it('does not read the variables again when none was written, once the server wrapped process.env', () => {
    let reads = 0;
    process.env = new Proxy(
      { ...process.env },
      {
        get(target, name) {
          reads++;
          return Reflect.get(target, name);
        },
      },
    );
    watchEnvironmentWrites();
    env();
    const afterFirst = reads;
    expect(afterFirst).toBeGreaterThan(0);
    for (let i = 0; i < 10; i++) env();
    expect(reads).toBe(afterFirst);
    process.env.STATEHOUSE_READ_ONLY = '1';
    expect(env().STATEHOUSE_READ_ONLY).toBe(true);
    expect(reads).toBeGreaterThan(afterFirst);
  });

  it('sees a write that bypassed the wrapping within a second', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const underneath = process.env;
    watchEnvironmentWrites();
    expect(env().STATEHOUSE_READ_ONLY).toBe(false);
    expect(process.env).not.toBe(underneath);
    underneath.STATEHOUSE_READ_ONLY = '1';
    vi.advanceTimersByTime(1_001);
    expect(env().STATEHOUSE_READ_ONLY).toBe(true);
  });

  it('is wrapped once however many copies of the module ask (Next bundles it more than once)', async () => {
    watchEnvironmentWrites();
    env();
    const wrapped = process.env;
    vi.resetModules();
    const copy = await import('./env');
    expect(copy.env).not.toBe(env);
    for (let i = 0; i < 3; i++) {
      copy.watchEnvironmentWrites();
      copy.env();
      env();
    }
    expect(process.env).toBe(wrapped);
    process.env.STATEHOUSE_READ_ONLY = '1';
    expect(copy.env().STATEHOUSE_READ_ONLY).toBe(true);
    expect(env().STATEHOUSE_READ_ONLY).toBe(true);
  });
});
