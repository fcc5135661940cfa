// Scratch databases: a temporary directory of SQLite files, and one
// PostgreSQL database per implementation, created for this run and dropped after.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { queryPostgres } from '../lib/db/postgres-statement';

export interface Scratch {
  /** A fresh database URL for `label` (file:... or postgresql://...). */
  url(provider: 'sqlite' | 'postgresql', label: string): Promise<string>;
  dropAll(): Promise<void>;
}

/**
 * `synchronousCommit: false` sets synchronous_commit = off on the scratch
 * PostgreSQL databases: commits stop waiting for the WAL flush, so a shared,
 * busy disk stops dominating every write (each implementation alike).
 */
export function createScratch(runId: string, postgresUrl: string, synchronousCommit = true): Scratch {
  const dir = mkdtempSync(join(tmpdir(), 'statehouse-bench-'));
  const databases: string[] = [];

  const admin = (sql: string) => queryPostgres(postgresUrl, sql);

  return {
    async url(provider, label) {
      if (provider === 'sqlite') return `file:${join(dir, `${label}.db`)}`;
      const name = `statehouse_bench_${runId}_${label}`.replace(/[^a-z0-9_]/g, '_');
      await admin(`CREATE DATABASE "${name}"`);
      databases.push(name);
      if (!synchronousCommit) await admin(`ALTER DATABASE "${name}" SET synchronous_commit = off`);
      const url = new URL(postgresUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async dropAll() {
      for (const name of databases.splice(0)) {
        await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch((error: unknown) => {
          console.warn(`Could not drop scratch database ${name}: ${error instanceof Error ? error.message : String(error)}`);
        });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
