// How a request finds its store: in an API request's store scope, once the
// services are open, in one settled promise (every promise costs each request
// the async hooks of every AsyncLocalStorage in the process).
import { createHook } from 'node:async_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from './testing/use-test-database';
import { getStore, getStoreInfo, inStoreScope, setServicesForTests } from './services';

/** The promises `run` makes, after one run to warm it. */
async function promisesOf(run: () => Promise<unknown>): Promise<number> {
  await run();
  let made = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'PROMISE') made++;
    },
  });
  hook.enable();
  try {
    await run();
  } finally {
    hook.disable();
  }
  return made;
}

describe('getStore() in an API request', () => {
  const database = useTestDatabase('sqlite', { serveRoutes: true });

  it('answers the served store in one promise', async () => {
    expect(await inStoreScope(undefined, () => getStore())).toBe(database.service);
    expect(await promisesOf(() => inStoreScope(undefined, () => getStore()))).toBeLessThanOrEqual(2);
  });

  it('refuses a store that is not served, as a rejected promise', async () => {
    await expect(inStoreScope('elsewhere', () => getStore())).rejects.toThrow(/No store "elsewhere"/);
    await expect(inStoreScope('elsewhere', () => getStoreInfo())).rejects.toThrow(/No store "elsewhere"/);
  });
});

describe('getStore() in an API request, over the configured database', () => {
  const dir = mkdtempSync(join(tmpdir(), 'statehouse-services-'));
  const saved = process.env.DATABASE_URL;
  afterAll(() => {
    process.env.DATABASE_URL = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers in one promise once the services are open', async () => {
    process.env.DATABASE_URL = `file:${join(dir, 'own.db')}`;
    setServicesForTests({});
    const store = await inStoreScope(undefined, () => getStore());
    expect(await inStoreScope(undefined, () => getStore())).toBe(store);
    expect(await promisesOf(() => inStoreScope(undefined, () => getStore()))).toBeLessThanOrEqual(2);
  });
});
