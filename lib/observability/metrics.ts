// Statehouse's Prometheus metrics: one registry per process (kept on
// globalThis, since Next loads instrumentation.ts and the routes as separate
// bundles that must count into the same registry).
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** A connection pool's use at the moment of a scrape. */
export interface PoolUse {
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

export type SignInOutcome = 'success' | 'wrong' | 'throttled';
export type StoreOperationKind = 'read' | 'write';

/** Seconds: from a cached read (a millisecond) to a write that waited out a lock (seconds). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function build() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'statehouse_' });
  const pools = new Map<string, () => PoolUse>();
  const registers = [registry];
  return {
    registry,
    pools,
    requestDuration: new Histogram({
      name: 'statehouse_http_request_duration_seconds',
      help: 'API requests by method, route template and status.',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    unavailable: new Counter({
      name: 'statehouse_http_unavailable_total',
      help: '503 answers by cause: database (unreachable, timed out, locked), store (the store refused for now), other.',
      labelNames: ['cause'] as const,
      registers,
    }),
    poolConnections: new Gauge({
      name: 'statehouse_db_pool_connections',
      help: 'PostgreSQL connection pools: total, idle and waiting (queries queued for a connection), by database.',
      labelNames: ['database', 'state'] as const,
      registers,
      collect() {
        this.reset();
        for (const [database, poolUse] of pools) {
          const { total, idle, waiting } = poolUse();
          this.set({ database, state: 'total' }, total);
          this.set({ database, state: 'idle' }, idle);
          this.set({ database, state: 'waiting' }, waiting);
        }
      },
    }),
    storeDuration: new Histogram({
      name: 'statehouse_store_operation_duration_seconds',
      help: 'Session store calls by family (native or the ADK that wrote the store), kind (read or write), operation and outcome.',
      labelNames: ['family', 'kind', 'operation', 'outcome'] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    appends: new Counter({
      name: 'statehouse_appends_total',
      help: 'Events appended, by store family.',
      labelNames: ['family'] as const,
      registers,
    }),
    pageRenders: new Histogram({
      name: 'statehouse_page_render_duration_seconds',
      help: 'Console pages served by Next, by route template, kind (document: a full page; rsc: a client navigation) and status; measured at the door.',
      labelNames: ['route', 'kind', 'status'] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    actions: new Histogram({
      name: 'statehouse_server_action_duration_seconds',
      help: 'Server actions (the writes of the console forms) by action and outcome: ok, or the refusal code (INVALID_INPUT, FORBIDDEN, CONFLICT, UNAVAILABLE, ...).',
      labelNames: ['action', 'outcome'] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    agentFileTries: new Counter({
      name: 'statehouse_agent_sqlite_write_tries_total',
      help: "Console writes to an agent's SQLite file, by try: taken, waited (another process held a lock, so no try was made) or busy (tried and refused: a try an agent's write could have met).",
      labelNames: ['outcome'] as const,
      registers,
    }),
    signIns: new Counter({
      name: 'statehouse_sign_ins_total',
      help: 'Password sign-ins by outcome: success, wrong (name or password), throttled (refused before checking).',
      labelNames: ['outcome'] as const,
      registers,
    }),
  };
}

type Metrics = ReturnType<typeof build>;
const KEY = Symbol.for('statehouse.metrics');
const processWide = globalThis as unknown as { [KEY]?: Metrics };

function metrics(): Metrics {
  return (processWide[KEY] ??= build());
}

export function observeRequest(labels: { method: string; route: string; status: number }, seconds: number): void {
  metrics().requestDuration.observe({ ...labels, status: String(labels.status) }, seconds);
}

export function observePageRender(labels: { route: string; kind: 'document' | 'rsc'; status: number }, seconds: number): void {
  metrics().pageRenders.observe({ ...labels, status: String(labels.status) }, seconds);
}

export function observeAction(labels: { action: string; outcome: string }, seconds: number): void {
  metrics().actions.observe(labels, seconds);
}

export function countUnavailable(cause: 'database' | 'store' | 'other'): void {
  metrics().unavailable.inc({ cause });
}

export function observeStoreOperation(
  labels: { family: string; kind: StoreOperationKind; operation: string; outcome: 'ok' | 'error' },
  seconds: number,
): void {
  metrics().storeDuration.observe(labels, seconds);
}

export function countAppend(family: string): void {
  metrics().appends.inc({ family });
}

export function countAgentFileTry(outcome: 'taken' | 'waited' | 'busy'): void {
  metrics().agentFileTries.inc({ outcome });
}

export function countSignIn(outcome: SignInOutcome): void {
  metrics().signIns.inc({ outcome });
}

/** Reports `use` under `database` at every scrape (a later pool of the same name replaces it). */
export function observePool(database: string, use: () => PoolUse): void {
  metrics().pools.set(database, use);
}

export function forgetPool(database: string, use: () => PoolUse): void {
  const { pools } = metrics();
  if (pools.get(database) === use) pools.delete(database);
}

/** The exposition: Prometheus text format. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}
