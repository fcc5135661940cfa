// Opens an implementation on a database URL. Modules load lazily, so a memory
// probe for one implementation does not carry the others' code.
import type { BenchTarget, ImplName, ProviderName } from './types';

export interface OpenOptions {
  /** Statehouse: apply migrations first (the raw floor shares Statehouse's schema, so it does too). */
  migrate?: boolean;
  statehouseLib?: string;
}

export async function openTarget(impl: ImplName, provider: ProviderName, url: string, options: OpenOptions = {}): Promise<BenchTarget> {
  switch (impl) {
    case 'statehouse': {
      const { StatehouseTarget } = await import('./statehouse');
      return StatehouseTarget.open(url, { libDir: options.statehouseLib, migrate: options.migrate });
    }
    case 'raw': {
      if (options.migrate !== false) {
        const { migrateDatabase } = await import('../../lib/migrate');
        await migrateDatabase(url);
      }
      if (provider === 'sqlite') {
        const { RawSqliteTarget } = await import('./raw-sqlite');
        return new RawSqliteTarget(url.slice('file:'.length));
      }
      const { RawPostgresTarget } = await import('./raw-postgres');
      return new RawPostgresTarget(url);
    }
    case 'adk-db': {
      const { AdkDatabaseTarget } = await import('./adk-database');
      return AdkDatabaseTarget.open(url);
    }
    case 'adk-memory': {
      const { AdkMemoryTarget } = await import('./adk-memory');
      return new AdkMemoryTarget();
    }
  }
}

/** Statement and transaction counters, where the implementation keeps them. */
export function countsOf(target: BenchTarget): { statements: number; transactions: number } | null {
  const counts = (target as Partial<{ counts: { statements: number; transactions: number } }>).counts;
  return counts ?? null;
}
