// Every ADK fixture writer, by family: the one place tests, e2e specs and
// `npm run adk:fixture` look a writer up. A new family (or a new kind of an
// existing one) is one entry here; the helpers in stores.ts and the script
// need no change.
import { writeAdkGoScenario, type AdkGoOptions } from './adk-go';
import { writeAdkJsScenario } from './adk-js';
import { writeRustScenario } from './adk-rust';
import { writePythonDbStore, type PyDbOptions } from './python-db';
import { writePythonSqliteStore } from './python-sqlite';
import type { FixtureTarget } from './fixture-db';
import { writeRedisScenario, type RedisFixtureLayout, type RedisTarget } from './redis';
import type { ScenarioSession } from './scenario';

export type FixtureDialect = 'sqlite' | 'postgresql' | 'mysql' | 'redis';

export type { FixtureTarget };

/** Where a writer writes: a SQL database, or a Redis location. */
export type WriterTarget = FixtureTarget | RedisTarget;

/** The SQL target of a writer that writes SQL only. */
function sql(target: WriterTarget, who: string): FixtureTarget {
  if ('redisUrl' in target) throw new Error(`${who} writes SQL databases, not Redis.`);
  return target;
}

export interface AdkFixtureWriter<Options> {
  /** The databases this family's writer can write, the first the default. */
  dialects: readonly [FixtureDialect, ...FixtureDialect[]];
  /** What the fixture is, for test names and the script's output (on which database, when given). */
  label(options: Options, dialect?: FixtureDialect): string;
  write(target: WriterTarget, appName: string, sessions: ScenarioSession[], options: Options): Promise<void>;
  /** The kinds `npm run adk:fixture` offers, by name; a kind only one database has says which. */
  presets: Record<string, Options & { dialect?: FixtureDialect }>;
}

/** Each family's options, beyond the dialect. */
export interface AdkFixtureOptions {
  'py-sqlite': { wal?: boolean };
  'py-db': PyDbOptions;
  'adk-js': object;
  'adk-rust': object;
  'adk-go': AdkGoOptions;
  redis: { layout: RedisFixtureLayout };
}

export type AdkFixtureFamily = keyof AdkFixtureOptions;

/** One fixture: a family, the database it goes to, and the family's options. */
export type AdkFixtureKind<F extends AdkFixtureFamily = AdkFixtureFamily> = {
  [K in F]: { family: K; dialect?: FixtureDialect } & AdkFixtureOptions[K];
}[F];

/** A Statehouse database URL for the target (`file:` for SQLite, as Statehouse spells it). */
export function targetUrl(target: WriterTarget): string {
  if ('sqlitePath' in target) return `file:${target.sqlitePath}`;
  if ('redisUrl' in target) return target.redisUrl;
  return 'mysqlUrl' in target ? target.mysqlUrl : target.postgresUrl;
}

const on = (dialect: FixtureDialect | undefined): string => (dialect ? ` on ${dialect}` : '');

export const ADK_FIXTURE_WRITERS: { [F in AdkFixtureFamily]: AdkFixtureWriter<AdkFixtureOptions[F]> } = {
  'py-sqlite': {
    dialects: ['sqlite'],
    label: (options) => `adk-python SqliteSessionService (${options.wal ? 'WAL' : 'rollback journal'})`,
    write: async (target, appName, sessions, options) => {
      if (!('sqlitePath' in target)) throw new Error('adk-python SqliteSessionService writes SQLite files only');
      writePythonSqliteStore(target.sqlitePath, appName, sessions, options);
    },
    presets: { 'py-sqlite': {}, 'py-sqlite-wal': { wal: true } },
  },
  'py-db': {
    dialects: ['sqlite', 'postgresql', 'mysql'],
    label: (options, dialect) =>
      `adk-python DatabaseSessionService ${options.v0 ? 'v0' : 'v1'}${on(dialect)}${options.mariadbUrl ? ' via mariadb:// (TEXT, DATETIME)' : ''} (${options.clock}${options.clock === 'local' ? ` ${options.localZone ?? `UTC+${options.localOffsetHours ?? 2}`}` : ''})`,
    write: async (target, appName, sessions, options) => {
      if (options.clock === 'timestamptz' && !('postgresUrl' in target)) throw new Error('timestamptz columns are a PostgreSQL layout');
      await writePythonDbStore(sql(target, 'DatabaseSessionService'), appName, sessions, options);
    },
    presets: {
      'py-db-local': { clock: 'local', localOffsetHours: 2 },
      'py-db-utc': { clock: 'utc' },
      'py-db-tz': { clock: 'timestamptz', dialect: 'postgresql' },
      'py-db-v0': { clock: 'local', v0: true },
      'py-db-mysql': { clock: 'local', localOffsetHours: 2, dialect: 'mysql' },
      'py-db-mariadb-url': { clock: 'local', localOffsetHours: 2, dialect: 'mysql', mariadbUrl: true },
    },
  },
  'adk-js': {
    dialects: ['sqlite', 'postgresql'],
    label: (_options, dialect) => `adk-js DatabaseSessionService${on(dialect)}`,
    write: (target, appName, sessions) => writeAdkJsScenario(targetUrl(target), appName, sessions),
    presets: { 'adk-js': {} },
  },
  'adk-rust': {
    dialects: ['sqlite', 'postgresql'],
    label: (_options, dialect) => `adk-rust session service${on(dialect)}`,
    write: (target, appName, sessions) => writeRustScenario(targetUrl(target), appName, sessions),
    presets: { 'adk-rust': {} },
  },
  'adk-go': {
    dialects: ['sqlite', 'postgresql', 'mysql'],
    label: (options, dialect) =>
      `adk-go session/database${on(dialect)}${dialect === 'sqlite' || dialect === undefined ? ` (${options.zone?.name ?? 'CET'})` : ''}`,
    write: (target, appName, sessions, options) => writeAdkGoScenario(sql(target, 'adk-go'), appName, sessions, options),
    presets: { 'adk-go': {} },
  },
  redis: {
    dialects: ['redis'],
    label: (options) =>
      options.layout === 'community' ? 'adk-python-community RedisSessionService' : 'adk-python RedisSessionService (integrations/redis)',
    write: async (target, appName, sessions, options) => {
      if (!('redisUrl' in target)) throw new Error('The Redis session services write Redis only');
      await writeRedisScenario(options.layout, appName, sessions, target.redisUrl);
    },
    presets: { 'redis-python': { layout: 'adk-python' }, 'redis-community': { layout: 'community' } },
  },
};

/** The kind's writer, typed to its options. */
export function fixtureWriter<F extends AdkFixtureFamily>(kind: AdkFixtureKind<F>): AdkFixtureWriter<AdkFixtureKind<F>> {
  return ADK_FIXTURE_WRITERS[kind.family] as AdkFixtureWriter<AdkFixtureKind<F>>;
}

export function fixtureDialect(kind: AdkFixtureKind): FixtureDialect {
  return kind.dialect ?? fixtureWriter(kind).dialects[0];
}

export function fixtureLabel(kind: AdkFixtureKind): string {
  return fixtureWriter(kind).label(kind, fixtureDialect(kind));
}

/** Every preset of every family, by the name `npm run adk:fixture` takes. */
export function fixturePresets(): Map<string, AdkFixtureKind> {
  const presets = new Map<string, AdkFixtureKind>();
  for (const family of Object.keys(ADK_FIXTURE_WRITERS) as AdkFixtureFamily[]) {
    for (const [name, options] of Object.entries(ADK_FIXTURE_WRITERS[family].presets))
      presets.set(name, { ...options, family } as AdkFixtureKind);
  }
  return presets;
}
