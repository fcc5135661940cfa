// A describe block's agent store over a fresh fixture that the test spoils
// first (rows no ADK would write, another spelling of its blobs), opened the
// way the console opens it. Hostile-row tests of the stores and of the API
// build it the same way.
import { afterAll, beforeAll } from 'vitest';
import { setServicesForTests } from '../../services';
import { openAdkStore, type AdkSessionStore } from '../../stores/adk';
import type { AdkFixtureKind } from './registry';
import { writeAdkFixture } from './stores';

type WrittenFixture = Awaited<ReturnType<typeof writeAdkFixture>>;

export interface SpoiledStore<T> {
  /** Set before the block's first test. */
  store: AdkSessionStore;
  /** What `spoil` returned (the hostile cases it wrote). */
  spoiled: T;
}

/**
 * Writes the fixture of `kind`, runs `spoil` on it, opens it before the block's
 * tests and closes and removes it after them. `serve`: the API routes answer
 * from it too (setServicesForTests).
 */
export function useSpoiledAdkStore<T>(
  kind: AdkFixtureKind,
  spoil: (written: WrittenFixture) => Promise<T>,
  { serve = false }: { serve?: boolean } = {},
): SpoiledStore<T> {
  const held = {} as SpoiledStore<T>;
  let remove: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const written = await writeAdkFixture(kind);
    remove = written.remove;
    held.spoiled = await spoil(written);
    held.store = await openAdkStore(written.locator);
    if (serve) setServicesForTests({ store: held.store, info: held.store.info });
  }, 60_000);

  afterAll(async () => {
    if (serve) setServicesForTests({});
    await held.store?.close();
    await remove?.();
  });

  return held;
}
