// Command line and scales. `--scale small` keeps the shape and shrinks the counts.
import { IMPL_NAMES, type ImplName, type ProviderName } from './implementations/types';

export interface Scale {
  name: 'small' | 'default';
  rounds: number;
  creates: number;
  appends: number;
  writers: number;
  concurrentAppends: number;
  bigEvents: number;
  smallEvents: number;
  getRecentOps: number;
  recentEvents: number;
  getFullOps: number;
  listUserSessions: number;
  listAppSessions: number;
  listOps: number;
  /** Session counts of the apps whose first page of 20 is read. */
  pageCounts: number[];
  pageSize: number;
  /** Pages read per round; the search and users pages (not targets, slower) read a tenth as many. */
  pageOps: number;
  memoryAppends: number;
  /** Appends to one session in the growth workload. */
  growthAppends: number;
  /** Events of the session, and sessions of the app, whose dashboard pages are timed. */
  dashboardSessionEvents: number;
  dashboardAppSessions: number;
  /** --api: page loads whose first byte and server RSS are measured. */
  pageLoads: number;
}

export const SCALES: Record<Scale['name'], Scale> = {
  default: {
    name: 'default',
    rounds: 5,
    creates: 100,
    appends: 200,
    writers: 8,
    concurrentAppends: 50,
    bigEvents: 10_000,
    smallEvents: 10,
    // Rounds of a few milliseconds are mostly noise on a shared machine: these make each round tens of ms.
    getRecentOps: 200,
    recentEvents: 20,
    getFullOps: 3,
    listUserSessions: 1_000,
    listAppSessions: 10_000,
    listOps: 3,
    pageCounts: [1_000, 10_000, 100_000],
    pageSize: 20,
    pageOps: 200,
    memoryAppends: 200,
    growthAppends: 10_000,
    dashboardSessionEvents: 10_000,
    dashboardAppSessions: 100_000,
    pageLoads: 1_000,
  },
  small: {
    name: 'small',
    rounds: 5,
    creates: 30,
    appends: 50,
    writers: 8,
    concurrentAppends: 10,
    bigEvents: 1_000,
    smallEvents: 10,
    getRecentOps: 60,
    recentEvents: 20,
    getFullOps: 3,
    listUserSessions: 100,
    listAppSessions: 1_000,
    listOps: 3,
    pageCounts: [100, 1_000, 10_000],
    pageSize: 20,
    pageOps: 100,
    memoryAppends: 50,
    growthAppends: 1_000,
    // The dashboard's fixtures are kept in .data/ between runs: full size at every scale.
    dashboardSessionEvents: 10_000,
    dashboardAppSessions: 100_000,
    pageLoads: 200,
  },
};

export interface Options {
  scale: Scale;
  impls: ImplName[];
  providers: Exclude<ProviderName, 'memory'>[];
  workloads: string[] | null;
  memory: boolean;
  profile: boolean;
  /** Time the dashboard's pages (a server this run starts, or --dashboard-url). */
  dashboard: boolean;
  dashboardOnly: boolean;
  dashboardUrl: string | null;
  dashboardDatabaseUrl: string | null;
  dashboardPort: number;
  /** Build output of the dashboard this run starts (built first when absent). */
  distDir: string;
  postgresUrl: string;
  /** synchronous_commit of the scratch PostgreSQL databases (the server's default, on, unless --pg-async-commit). */
  pgSynchronousCommit: boolean;
  statehouseLib: string | undefined;
  outDir: string;
  /** Port of the server the /api implementation starts (statehouse-api; needs a build in distDir). */
  apiPort: number;
  /** Port of --api's reference door (0: an ephemeral one). */
  refPort: number;
  /** --api: the HTTP comparison (/api against the reference door) instead of the in-process workloads. */
  api: boolean;
  /** Client counts of that comparison. */
  apiClients: number[];
  /** Requests each door answers per operation and client count before its rounds (0: 3 per client). */
  apiWarmup: number;
  /** Node's own flags for the /api server (BENCH_NODE_ARGS, space-separated: `--cpu-prof --cpu-prof-dir=DIR`). */
  apiNodeArgs: string[];
  /** --time-travel: time travel on a 100,000-event ADK session right after an append, instead of the workloads. */
  timeTravel: boolean;
  /** --long-reads: a 100,000-event ADK session's filtered lists, histories and whole read right after appends, instead of the workloads. */
  longReads: boolean;
  /** --coexistence: a live adk-js agent and console writers on one store, instead of the workloads. */
  coexistence: boolean;
  /** --large-values: concurrent first views of a native session of 60 events of 2 MiB, instead of the workloads. */
  largeValues: boolean;
  /** --search: the console's search at 100,000 sessions and 1,000,000 events, instead of the workloads. */
  search: boolean;
  /** --store: which stores --search times (default: both). */
  searchStores: SearchStoreKind[];
}

export const SEARCH_STORE_KINDS = ['native', 'adk'] as const;
export type SearchStoreKind = (typeof SEARCH_STORE_KINDS)[number];

const USAGE = `npm run bench -- [options]
  --scale small|default        counts (default: default; small finishes in a few minutes)
  --rounds N                   timed rounds per workload (median reported)
  --impl a,b                   statehouse,statehouse-adk,statehouse-api,statehouse-reference,raw,simple,adk-db,
                               adk-memory (default: all but the two HTTP doors)
  --api                        the HTTP comparison instead: /api from \`next start\` (builds into NEXT_DIST_DIR,
                               default .next-bench, when there is no build there) against the reference door,
                               create/append/get/list/state (--workload narrows; none: page loads only), then page
                               loads (--page-loads N); BENCH_NODE_ARGS: Node flags for that server (--cpu-prof ...),
                               BENCH_REF_NODE_ARGS: for the reference door's process (to profile both side by side)
  --clients a,b                client counts of --api (default: 1,16)
  --time-travel                time travel to the middle of a 100,000-event adk-python SQLite session right after
                               an append (--rounds of them), an unrelated request's latency meanwhile, peak RSS
  --long-reads                 a 100,000-event adk-python SQLite session's key and author filtered lists, a key's
                               and the user's history and the whole session, each right after an append
  --coexistence                a live adk-js agent (the Runner over adk-js's DatabaseSessionService) and 1 or 8
                               console writers on one store for 20 s per --provider: agent failures per 1,000
  --large-values               6 concurrent first views (the session page's server reads) of a native SQLite session
                               of 60 events of 2 MiB (--rounds of them), an unrelated request's latency meanwhile
  --search                     the console's search (header find, state filters) at 100,000 sessions and
                               1,000,000 events: native store per --provider, an adk-python SQLite store's
                               bounded scan and an index of Statehouse's own for it (writes ~1 GB of scratch data)
  --store a,b                  native,adk: the stores --search times (default: both)
  --page-loads N               page loads of --api (default: 1000; 200 at --scale small; 0 skips them)
  --api-port N                 port of that server (default: BENCH_API_PORT or 3206)
  --api-warmup N               requests each door answers per operation before its rounds (default: 3 per client;
                               next start's /api takes about 2,000 to reach its steady CPU per request, bench/door-cpu.ts)
  --ref-port N                 port of --api's reference door (default: BENCH_REF_PORT or an ephemeral one)
  --provider a,b               sqlite,postgresql (default: both; adk-memory runs regardless)
  --workload a,b               only these workloads (names as in the table)
  --no-memory                  skip the peak-memory child processes
  --no-profile                 skip the statement-count profile
  --pg-async-commit            synchronous_commit = off on the scratch PostgreSQL databases (commits do
                               not wait for the disk; for every implementation alike)
  --postgres-url URL           server for scratch databases (default: BENCH_POSTGRES_URL or postgresql://postgres@127.0.0.1:5432/postgres)
  --dashboard                  also time the dashboard's first byte: builds (when NEXT_DIST_DIR has no build)
                               and starts \`next start\` on --dashboard-port over .data/bench-dashboard.db
  --dashboard-only             only the dashboard timing (implies --dashboard)
  --dashboard-port N           port of the server --dashboard starts (default: E2E_PORT or 3204)
  --dashboard-url URL          time a server already running instead (implies --dashboard)
  --dashboard-database-url URL the database that server reads (default: DATABASE_URL or file:./.data/statehouse.db)
  --statehouse-lib DIR         benchmark a scratch copy of lib/ (to measure a prototype fix)
  --out DIR                    where the JSON goes (default: bench-results)`;

/** Options that take no value. */
const FLAGS = new Set([
  'no-memory',
  'no-profile',
  'dashboard',
  'dashboard-only',
  'pg-async-commit',
  'api',
  'time-travel',
  'long-reads',
  'coexistence',
  'large-values',
  'search',
]);
const IMPLS = IMPL_NAMES;

function searchStores(names: string[] | null): SearchStoreKind[] {
  if (names === null) return [...SEARCH_STORE_KINDS];
  for (const name of names) {
    if (!(SEARCH_STORE_KINDS as readonly string[]).includes(name)) throw new Error(`Unknown store ${name}\n${USAGE}`);
  }
  return names as SearchStoreKind[];
}

export function parseOptions(argv: string[]): Options {
  const args = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    if (!arg.startsWith('--')) throw new Error(`Unexpected argument ${arg}\n${USAGE}`);
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    const next = argv[i + 1];
    if (inline !== undefined) args.set(name, inline);
    else if (FLAGS.has(name) || next === undefined || next.startsWith('--')) args.set(name, true);
    else {
      args.set(name, next);
      i++;
    }
  }
  const text = (name: string): string | undefined => {
    const value = args.get(name);
    return typeof value === 'string' ? value : undefined;
  };
  const list = (name: string): string[] | null =>
    text(name)
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean) ?? null;

  const scaleName = text('scale') ?? 'default';
  if (scaleName !== 'small' && scaleName !== 'default') throw new Error(`--scale must be small or default\n${USAGE}`);
  const scale = { ...SCALES[scaleName] };
  const rounds = text('rounds');
  if (rounds !== undefined) scale.rounds = Math.max(1, Number.parseInt(rounds, 10));
  const pageLoads = text('page-loads');
  if (pageLoads !== undefined) scale.pageLoads = Math.max(0, Number.parseInt(pageLoads, 10));

  const defaults = IMPLS.filter((impl) => impl !== 'statehouse-api' && impl !== 'statehouse-reference');
  const impls = (list('impl') ?? defaults) as ImplName[];
  for (const impl of impls) {
    if (!IMPLS.includes(impl)) throw new Error(`Unknown implementation ${impl}\n${USAGE}`);
  }
  const providers = (list('provider') ?? ['sqlite', 'postgresql']) as Options['providers'];
  for (const provider of providers) {
    if (!['sqlite', 'postgresql'].includes(provider)) throw new Error(`Unknown provider ${provider}\n${USAGE}`);
  }
  const dashboardUrl = text('dashboard-url') ?? null;
  const dashboardOnly = args.has('dashboard-only');
  return {
    scale,
    impls,
    providers,
    workloads: list('workload'),
    memory: !args.has('no-memory'),
    profile: !args.has('no-profile'),
    dashboard: dashboardOnly || dashboardUrl !== null || args.has('dashboard'),
    dashboardOnly,
    dashboardPort: Number.parseInt(text('dashboard-port') ?? process.env.E2E_PORT ?? '3204', 10),
    distDir: process.env.NEXT_DIST_DIR || '.next-bench',
    dashboardUrl,
    dashboardDatabaseUrl: dashboardUrl
      ? (text('dashboard-database-url') ?? process.env.DATABASE_URL ?? 'file:./.data/statehouse.db')
      : null,
    pgSynchronousCommit: !args.has('pg-async-commit'),
    postgresUrl: text('postgres-url') ?? process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
    statehouseLib: text('statehouse-lib'),
    outDir: text('out') ?? 'bench-results',
    apiPort: Number.parseInt(text('api-port') ?? process.env.BENCH_API_PORT ?? '3206', 10),
    refPort: Number.parseInt(text('ref-port') ?? process.env.BENCH_REF_PORT ?? '0', 10),
    api: args.has('api'),
    apiClients: (list('clients') ?? ['1', '16']).map((n) => Math.max(1, Number.parseInt(n, 10))),
    apiWarmup: Math.max(0, Number.parseInt(text('api-warmup') ?? '0', 10) || 0),
    apiNodeArgs: (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
    timeTravel: args.has('time-travel'),
    longReads: args.has('long-reads'),
    coexistence: args.has('coexistence'),
    largeValues: args.has('large-values'),
    search: args.has('search'),
    searchStores: searchStores(list('store')),
  };
}
