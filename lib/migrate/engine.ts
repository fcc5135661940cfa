// Loads Prisma's WebAssembly schema engine (the engine behind `prisma migrate`
// over driver adapters) in plain Node, and opens it on one database.
//
// The package's entry point imports the .wasm file as an ES module, which only
// bundlers understand, so we do by hand what that entry point does: load the
// wasm-bindgen glue (schema_engine_bg.js), instantiate the .wasm next to it with
// the glue as its import object, hand the instance to the glue, and start it.
// Both files are read from node_modules at run time, never bundled, so this
// works the same under tsx, Vitest and a Next.js server build.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { ErrorRegistry, SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SchemaEngine } from '@prisma/schema-engine-wasm/schema_engine_bg';
import pg from 'pg';
import { adapterFactoryFor, providerOf } from '../db';
import { queryPostgres } from '../db/postgres-statement';
import { env } from '../env';

export type { SchemaEngine };
type Glue = typeof import('@prisma/schema-engine-wasm/schema_engine_bg');

/**
 * The project root, where prisma/<provider>/ and node_modules are:
 * STATEHOUSE_ROOT if set; else the tree this module lives in, when it has the
 * migrations (an agent's own project imports lib/agent-service from there, running from
 * its own directory); else the working directory, for a Next.js build, whose
 * bundled modules no longer sit in the tree (`next start` runs from the root).
 */
export function projectRoot(): string {
  // turbopackIgnore: the root is only known at run time; Next must not trace the whole tree for it.
  const configured = env().STATEHOUSE_ROOT;
  if (configured) return resolve(/* turbopackIgnore: true */ configured);
  const tree = moduleTree();
  if (tree !== null) return tree;
  return resolve(/* turbopackIgnore: true */ process.cwd());
}

/** Two levels above this file (lib/migrate/), if that is a Statehouse tree with its migrations; null otherwise. */
function moduleTree(): string | null {
  let here: string;
  try {
    here = fileURLToPath(import.meta.url);
  } catch {
    return null; // not a file: URL (a bundle)
  }
  const tree = resolve(/* turbopackIgnore: true */ dirname(here), '..', '..');
  return existsSync(/* turbopackIgnore: true */ join(tree, 'prisma', 'sqlite', 'migrations', 'migration_lock.toml')) ? tree : null;
}

let gluePromise: Promise<Glue> | undefined;

/** The engine's module, instantiated once per process (the .wasm is 5 MB). */
export function loadSchemaEngine(): Promise<Glue> {
  gluePromise ??= instantiate().catch((error: unknown) => {
    gluePromise = undefined;
    throw error;
  });
  return gluePromise;
}

async function instantiate(): Promise<Glue> {
  installPanicRegistry();
  // Resolved from the project root rather than from this file, which a bundler moves.
  const gluePath = createRequire(join(projectRoot(), 'package.json')).resolve('@prisma/schema-engine-wasm/schema_engine_bg');
  const glue = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ pathToFileURL(gluePath).href)) as Glue;
  const bytes = await readFile(join(dirname(gluePath), 'schema_engine_bg.wasm'));
  const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': glue });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports as { __wbindgen_start(): void }).__wbindgen_start();
  return glue;
}

let panicMessage = '';

/** The glue reports a Rust panic's message through this global before it throws (Prisma's CLI defines it too). */
function installPanicRegistry(): void {
  const scope = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(message: string): void } };
  scope.PRISMA_WASM_PANIC_REGISTRY ??= {
    set_message: (message: string) => {
      panicMessage = message;
    },
  };
}

export interface OpenEngine {
  engine: SchemaEngine;
  /** The engine's error message, with the driver's errors in place of its "External error id#N" placeholders. */
  explain: (error: unknown) => string;
  /** Frees the engine and closes every connection it opened, main and shadow. */
  close: () => Promise<void>;
}

function explainExternalErrors(error: unknown, registry: ErrorRegistry): string {
  if (error instanceof WebAssembly.RuntimeError) return `The schema engine panicked: ${panicMessage || error.message}`;
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/External error id#(\d+)/g, (placeholder, id: string) => {
    const cause = registry.consumeError(Number(id))?.error;
    if (cause === undefined) return placeholder;
    return cause instanceof Error ? cause.message : JSON.stringify(cause);
  });
}

/**
 * Opens the schema engine on a database URL with one provider schema as its datamodel.
 * The engine never disposes of the driver adapters it connects, so we track them and
 * do it in close(); else PostgreSQL pools (and the advisory lock the engine holds on
 * one of their sessions) would outlive the call and keep the process alive.
 */
export async function openSchemaEngine(databaseUrl: string, schema: { path: string; content: string }): Promise<OpenEngine> {
  const glue = await loadSchemaEngine();
  const adapters: SqlDriverAdapter[] = [];
  const factory = trackAdapters(migrationAdapterFactory(databaseUrl), adapters);
  const bound = bindMigrationAwareSqlAdapterFactory(factory);
  const engine = await glue.SchemaEngine.new({ datamodels: [[schema.path, schema.content]] }, () => {}, bound);
  return {
    engine,
    explain: (error) => explainExternalErrors(error, bound.errorRegistry),
    async close() {
      engine.free();
      for (const adapter of adapters.splice(0)) await adapter.dispose().catch(() => {});
    },
  };
}

function migrationAdapterFactory(databaseUrl: string): SqlMigrationAwareDriverAdapterFactory {
  return providerOf(databaseUrl) === 'sqlite' ? sqliteFactory(databaseUrl) : postgresFactory(databaseUrl);
}

/**
 * The engine replays each migration on the shadow database with executeRaw, which
 * better-sqlite3 limits to one statement; a whole script goes to executeScript instead.
 */
function sqliteFactory(databaseUrl: string): SqlMigrationAwareDriverAdapterFactory {
  const factory = adapterFactoryFor(databaseUrl);
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => acceptScripts(await factory.connect()),
    connectToShadowDb: async () => acceptScripts(await factory.connectToShadowDb()),
  };
}

function acceptScripts(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const executeRaw = adapter.executeRaw.bind(adapter);
  adapter.executeRaw = async (query) => {
    try {
      return await executeRaw(query);
    } catch (error) {
      const isScript = error instanceof RangeError && /more than one statement/.test(error.message);
      if (!isScript || query.args.length > 0) throw error;
      await adapter.executeScript(query.sql);
      return 0;
    }
  };
  return adapter;
}

function trackAdapters(
  factory: SqlMigrationAwareDriverAdapterFactory,
  adapters: SqlDriverAdapter[],
): SqlMigrationAwareDriverAdapterFactory {
  const track = async (connecting: Promise<SqlDriverAdapter>) => {
    const adapter = await connecting;
    adapters.push(adapter);
    return adapter;
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: () => track(factory.connect()),
    connectToShadowDb: () => track(factory.connectToShadowDb()),
  };
}

/**
 * PrismaPg as the engine needs it, with three fixes over `new PrismaPg(url)`:
 * - the engine's catalogue queries return columns of PostgreSQL's internal "char"
 *   type (pg_constraint.contype, ...), which adapter-pg rejects as unsupported;
 *   our clients report them as text, which is what they are;
 * - PrismaPg's own shadow database is created, but its pool spreads the
 *   connection string over the new database name, and pg lets the connection
 *   string win, so the "shadow" pool would run on the main database. We create
 *   a temporary database ourselves and drop it on dispose;
 * - PrismaPg runs a migration script split at every ";", one statement at a
 *   time: a function body ($$ ... ; ... $$) breaks, and a failure midway
 *   leaves the migration half applied. The script goes whole, as one simple
 *   query, which PostgreSQL runs as one transaction (as Prisma's native
 *   engine sends it).
 */
function postgresFactory(databaseUrl: string): SqlMigrationAwareDriverAdapterFactory {
  const connect = async (url: string) =>
    wholeScripts(
      await new PrismaPg(new pg.Pool({ connectionString: url, Client: CatalogueClient }), {
        disposeExternalPool: true,
      }).connect(),
    );
  return {
    provider: 'postgres',
    adapterName: '@prisma/adapter-pg',
    connect: () => connect(databaseUrl),
    connectToShadowDb: () => connectToTemporaryDatabase(databaseUrl, connect),
  };
}

function wholeScripts(adapter: Awaited<ReturnType<PrismaPg['connect']>>): SqlDriverAdapter {
  const pool = adapter.underlyingDriver();
  // The adapter's own conversion, so the engine reports a failed script as it reports any statement.
  const onError = (adapter as unknown as { onError(error: unknown): never }).onError.bind(adapter);
  adapter.executeScript = async (script) => {
    try {
      await pool.query(script);
    } catch (error) {
      onError(error);
    }
  };
  return adapter;
}

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

type QueryResults = pg.QueryResult | pg.QueryResult[];

class CatalogueClient extends pg.Client {
  override query(...args: unknown[]): never {
    const last = args.at(-1);
    const query = super.query.bind(this) as (...a: unknown[]) => unknown;
    if (typeof last === 'function') {
      args[args.length - 1] = (error: unknown, results: QueryResults | undefined) =>
        (last as (e: unknown, r: unknown) => void)(error, results && charAsText(results));
      return query.apply(this, args) as never;
    }
    const pending = query.apply(this, args);
    return (pending instanceof Promise ? pending.then(charAsText) : pending) as never;
  }
}

function charAsText(results: QueryResults): QueryResults {
  for (const result of Array.isArray(results) ? results : [results]) {
    for (const field of result.fields ?? []) if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
  }
  return results;
}

async function connectToTemporaryDatabase(
  serverUrl: string,
  connect: (url: string) => Promise<SqlDriverAdapter>,
): Promise<SqlDriverAdapter> {
  const name = `statehouse_shadow_${randomUUID().replaceAll('-', '')}`;
  await queryPostgres(serverUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const adapter = await connect(url.toString());
  const dispose = adapter.dispose.bind(adapter);
  let dropped: Promise<void> | undefined;
  adapter.dispose = () => (dropped ??= dispose().finally(() => queryPostgres(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)));
  return adapter;
}
