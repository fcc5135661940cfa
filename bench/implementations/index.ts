// Opens an implementation on a database URL. Modules load lazily, so a memory
// probe for one implementation does not carry the others' code.
import type { ApiServerOptions } from './statehouse-api';
import type { BenchTarget, ImplName, ProviderName } from './types';

export interface OpenOptions {
  /** Statehouse: apply migrations first (the raw floor shares Statehouse's schema, so it does too). */
  migrate?: boolean;
  statehouseLib?: string;
  /** statehouse-api: the build and port of the server it starts. */
  api?: ApiServerOptions;
}

export async function openTarget(impl: ImplName, provider: ProviderName, url: string, options: OpenOptions = {}): Promise<BenchTarget> {
  switch (impl) {
    case 'statehouse': {
      const { openStatehouseTarget } = await import('./statehouse');
      return openStatehouseTarget(url, { libDir: options.statehouseLib, migrate: options.migrate });
    }
    case 'statehouse-adk': {
      const { statehouseAdkTarget } = await import('./statehouse-adk');
      return statehouseAdkTarget(provider === 'postgresql' ? 'postgresql' : 'sqlite', url);
    }
    case 'statehouse-api': {
      if (!options.api) throw new Error('statehouse-api needs the server options');
      const { statehouseApiTarget } = await import('./statehouse-api');
      return statehouseApiTarget(provider === 'postgresql' ? 'postgresql' : 'sqlite', url, options.api);
    }
    case 'statehouse-reference': {
      const { openReferenceDoor } = await import('./statehouse-api');
      const { DoorTarget } = await import('./door');
      return new DoorTarget(await openReferenceDoor(provider === 'postgresql' ? 'postgresql' : 'sqlite', url));
    }
    case 'simple': {
      if (provider === 'sqlite') {
        const { SimpleSqliteTarget } = await import('./simple-sqlite');
        return new SimpleSqliteTarget(url.slice('file:'.length));
      }
      const { SimplePostgresTarget } = await import('./simple-postgres');
      return new SimplePostgresTarget(url);
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
      const { adkDatabaseTarget } = await import('./adk-database');
      return adkDatabaseTarget(url);
    }
    case 'adk-memory': {
      const { adkMemoryTarget } = await import('./adk-memory');
      return adkMemoryTarget();
    }
  }
}

/** Statement and transaction counters, where the implementation keeps them. */
export function countsOf(target: BenchTarget): { statements: number; transactions: number } | null {
  const counts = (target as Partial<{ counts: { statements: number; transactions: number } }>).counts;
  return counts ?? null;
}
