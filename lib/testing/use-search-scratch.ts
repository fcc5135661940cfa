// Vitest hooks for the tests of an agent's store and Statehouse's index of it:
// a temporary folder for the agent's database, and Statehouse's own migrated
// SQLite database (where the index and the session log live).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type Database } from '../db';
import { createMigratedDatabase, type ScratchDatabase } from './databases';

export interface SearchScratch {
  /** The folder for the agent's database. */
  readonly dir: string;
  /** Statehouse's own database, and its URL. */
  readonly ownDb: Database;
  readonly ownUrl: string;
}

/**
 * Made before the calling describe block's own beforeAll hooks (so they can
 * write the agent's database into `dir`), removed after its afterAll hooks
 * (which run in reverse order, so the block closes its stores first).
 */
export function useSearchScratch(label: string): SearchScratch {
  let dir: string | undefined;
  let own: ScratchDatabase | undefined;
  let ownDb: Database | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `statehouse-${label}-`));
    own = await createMigratedDatabase('sqlite', label);
    ownDb = await openDatabase(own.url);
  });
  afterAll(async () => {
    await ownDb?.close();
    await own?.remove();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const present = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The search scratch exists only while its describe block runs.');
    return value;
  };
  return {
    get dir() {
      return present(dir);
    },
    get ownDb() {
      return present(ownDb);
    },
    get ownUrl() {
      return present(own).url;
    },
  };
}
