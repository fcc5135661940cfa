// The printed report: one table per database, then counts, memory, dashboard and targets.
import { IMPL_LABELS, IMPL_NAMES, type ImplName } from './implementations/types';
import type { ApiMeasurement, ApiResult } from './api';
import type { Group, RunResult } from './results';
import { checkTargets, find } from './targets';

const GROUP_LABELS: Record<Group, string> = { sqlite: 'SQLite', postgresql: 'PostgreSQL' };
const COLUMNS = IMPL_NAMES;
const SHORT: Record<ImplName, string> = {
  statehouse: 'SH store',
  'statehouse-adk': 'SH agent-service',
  'statehouse-api': 'SH /api',
  'statehouse-reference': 'ref door',
  raw: 'raw floor',
  simple: 'simple floor',
  'adk-db': 'ADK db',
  'adk-memory': 'ADK mem',
};

/** Ratio columns: [header, numerator, denominator]. */
const RATIOS: [string, ImplName, ImplName][] = [
  ['store / raw', 'statehouse', 'raw'],
  ['adk / raw', 'statehouse-adk', 'raw'],
  ['adk / simple', 'statehouse-adk', 'simple'],
  ['ADK db / adk', 'adk-db', 'statehouse-adk'],
  ['api / store', 'statehouse-api', 'statehouse'],
];

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a';
  if (ms < 0.1) return ms.toFixed(3);
  if (ms < 10) return ms.toFixed(2);
  if (ms < 100) return ms.toFixed(1);
  return ms.toFixed(0);
}

const NUMERIC = /^(n\/a|error|[\d.,]+x?)$/;

/** A Markdown table; columns of figures are right-aligned, text columns left-aligned. */
function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const right = header.map((_, i) => i > 0 && rows.every((r) => NUMERIC.test(r[i] ?? '')));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (right[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (right[i] ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

type Metric = 'msPerOp' | 'cpuMsPerOp';

function timingTable(run: RunResult, group: Group, metric: Metric): string {
  const impls = COLUMNS.filter((impl) => run.measurements.some((m) => m.group === group && m.impl === impl));
  const workloads = [...new Map(run.measurements.filter((m) => m.group === group).map((m) => [m.workload, m.title])).entries()];
  const unit = metric === 'msPerOp' ? 'workload (ms per operation)' : 'workload (CPU ms of this process per operation)';
  const ratios = RATIOS.filter(([, a, b]) => impls.includes(a) && impls.includes(b));
  const header = [unit, ...impls.map((i) => SHORT[i]), ...ratios.map(([h]) => h)];
  const rows = workloads.map(([workload, title]) => {
    const cells = impls.map((impl) => {
      const m = run.measurements.find((x) => x.group === group && x.impl === impl && x.workload === workload);
      if (!m) return 'n/a';
      return m.error ? 'error' : formatMs(m[metric]);
    });
    const ratioCells = ratios.map(([, a, b]) => {
      const x = find(run.measurements, group, a, workload);
      const y = find(run.measurements, group, b, workload);
      return x && y ? `${(x[metric] / y[metric]).toFixed(2)}x` : 'n/a';
    });
    return [title, ...cells, ...ratioCells];
  });
  return table(header, rows);
}

function lostWrites(run: RunResult, group: Group): string {
  const parts = run.measurements
    .filter((m) => m.group === group && m.workload === 'concurrent' && !m.error)
    .map((m) => `${SHORT[m.impl]} ${m.lost ?? 0} lost / ${m.failed ?? 0} failed of ${m.opsPerRound * m.roundsMsPerOp.length}`);
  return parts.length ? `Concurrent user: writes: ${parts.join('; ')}` : '';
}

function growth(run: RunResult, group: Group): string {
  const parts = run.measurements
    .filter((m) => m.group === group && m.workload === 'append-growth' && m.growth !== undefined && !m.error)
    .map((m) => `${SHORT[m.impl]} ${(m.growth ?? 0).toFixed(2)}x`);
  const state = run.measurements
    .filter((m) => m.group === group && m.workload === 'state-fresh' && m.growth !== undefined && !m.error)
    .map((m) => `${SHORT[m.impl]} ${(m.growth ?? 0).toFixed(2)}x`);
  return [
    parts.length ? `Append growth (p50 of the last tenth / p50 of the first tenth): ${parts.join('; ')}` : '',
    state.length ? `State read right after the bulk write / after ANALYZE (p50): ${state.join('; ')}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** /api's HTTP cost over the same operation in process (the domain store), per write and read workload. */
function httpOverhead(run: RunResult, group: Group): string {
  const parts = ['create', 'append', 'get-recent-big'].flatMap((workload) => {
    const api = find(run.measurements, group, 'statehouse-api', workload);
    const store = find(run.measurements, group, 'statehouse', workload);
    return api && store ? [`${workload} +${formatMs(api.msPerOp - store.msPerOp)} ms`] : [];
  });
  return parts.length ? `HTTP overhead of /api over the in-process call: ${parts.join('; ')}` : '';
}

function errors(run: RunResult, group: Group): string[] {
  return run.measurements.filter((m) => m.group === group && m.error).map((m) => `  ${IMPL_LABELS[m.impl]} / ${m.workload}: ${m.error}`);
}

export function formatReport(run: RunResult): string {
  const out: string[] = [];
  const { machine, scale } = run;
  out.push(
    `Statehouse benchmark, scale ${scale.name}, ${scale.rounds} rounds (median of per-round means), ${run.durationS.toFixed(0)} s, commit ${run.commit}`,
    `${machine.cpus} x ${machine.cpuModel}, ${machine.memoryGb} GB, Node ${machine.node}, load average at start ${machine.loadAverage.map((l) => l.toFixed(2)).join(' ')}${
      machine.loadAverageAtEnd ? `, at the end ${machine.loadAverageAtEnd.map((l) => l.toFixed(2)).join(' ')}` : ''
    }`,
    '',
  );
  for (const group of run.api ? [] : run.groups) {
    const note = group === 'postgresql' ? ` (synchronous_commit ${run.pgSynchronousCommit ? 'on' : 'off'})` : '';
    out.push(`## ${GROUP_LABELS[group]}${note}`, '', timingTable(run, group, 'msPerOp'), '');
    const lost = lostWrites(run, group);
    if (lost) out.push(lost, '');
    const grown = growth(run, group);
    if (grown) out.push(grown, '');
    const overhead = httpOverhead(run, group);
    if (overhead) out.push(overhead, '');
    const failed = errors(run, group);
    if (failed.length) out.push('Errors:', ...failed, '');
    const cpuNote =
      group === 'sqlite'
        ? 'the whole cost of an in-process database, little moved by other processes'
        : "the client's share only: the server's work is in its own processes";
    out.push(`CPU time of this process (${cpuNote}):`, '', timingTable(run, group, 'cpuMsPerOp'), '');
  }
  if (run.profiles.length) {
    out.push('## Statements and transactions per operation', '');
    const rows = run.profiles.map((p) => [
      `${GROUP_LABELS[p.group]} ${SHORT[p.impl]} ${p.operation}`,
      p.statementsPerOp.toFixed(1),
      p.transactionsPerOp.toFixed(1),
    ]);
    out.push(table(['operation', 'statements', 'transactions'], rows), '');
  }
  if (run.overheads.length) {
    out.push('## Fixed cost of SELECT 1 (median microseconds)', '');
    const rows = run.overheads.flatMap((o) => [
      [`${GROUP_LABELS[o.group]} PrismaClient`, o.clientQueryUs.toFixed(0), o.clientTransactionUs.toFixed(0)],
      [`${GROUP_LABELS[o.group]} driver adapter (Statehouse)`, o.adapterQueryUs.toFixed(0), o.adapterTransactionUs.toFixed(0)],
      [`${GROUP_LABELS[o.group]} driver alone`, o.driverQueryUs.toFixed(0), o.driverTransactionUs.toFixed(0)],
    ]);
    out.push(table(['path', 'query', 'transaction + query'], rows), '');
  }
  if (run.memory.length || run.memoryErrors.length) {
    out.push('## Peak memory (each implementation alone in a child process, MB)', '');
    const rows = run.memory.map((r) => [
      `${GROUP_LABELS[r.group]} ${SHORT[r.impl]}`,
      r.baselineRssMb.toFixed(0),
      r.peakRssMb.toFixed(0),
      r.baselineHeapMb.toFixed(0),
      r.peakHeapMb.toFixed(0),
    ]);
    out.push(table(['implementation', 'RSS after open', 'peak RSS', 'heap after open', 'peak heap'], rows), '');
    for (const e of run.memoryErrors) out.push(`  ${e}`);
  }
  if (run.api) out.push(...apiReport(run.api));
  if (run.dashboard) {
    out.push(`## Dashboard (${run.dashboard.url}, ${run.dashboard.provider})`, '');
    const rows = run.dashboard.pages.map((p) => [
      `${p.kind} page: ${p.path}`,
      String(p.status),
      formatMs(p.ttfbMs),
      formatMs(p.totalMs),
      (p.bytes / 1024).toFixed(0),
    ]);
    out.push(table(['page', 'status', 'TTFB ms', 'total ms', 'KiB'], rows), '');
  } else if (run.dashboardError) {
    out.push(`Dashboard not measured: ${run.dashboardError}`, '');
  }
  const checks = checkTargets(run);
  if (checks.length) {
    out.push('## Targets', '');
    const rows = checks.map((c) => [
      c.group === 'dashboard' ? 'dashboard' : GROUP_LABELS[c.group],
      c.target,
      c.measured,
      c.pass === null ? 'n/a' : c.pass ? 'PASS' : 'MISS',
    ]);
    out.push(table(['where', 'target', 'measured', ''], rows), '');
  }
  return out.join('\n');
}

/** --api: p50 per operation and client count, /api against the reference door, then the page loads. */
function apiReport(api: ApiResult): string[] {
  const out: string[] = [];
  for (const group of [...new Set(api.measurements.map((m) => m.group))]) {
    const rows = api.measurements.filter((m) => m.group === group && m.door === 'statehouse-api');
    const cells = rows.map((m) => {
      const reference = api.measurements.find(
        (r) => r.group === group && r.door === 'statehouse-reference' && r.op === m.op && r.clients === m.clients,
      );
      const ratio = reference && !m.error && !reference.error ? `${(m.p50Ms / reference.p50Ms).toFixed(2)}x` : 'n/a';
      const cell = (x: ApiMeasurement | undefined) => (!x || x.error ? 'error' : formatMs(x.p50Ms));
      const p95 = (x: ApiMeasurement | undefined) => (!x || x.error ? 'error' : formatMs(x.p95Ms));
      const cpu = (x: ApiMeasurement | undefined) => (x?.serverCpuMs === undefined ? 'n/a' : formatMs(x.serverCpuMs));
      const cpuRatio = m.serverCpuMs && reference?.serverCpuMs ? `${(m.serverCpuMs / reference.serverCpuMs).toFixed(2)}x` : 'n/a';
      return [m.op, String(m.clients), cell(m), cell(reference), ratio, p95(m), p95(reference), cpu(m), cpu(reference), cpuRatio];
    });
    out.push(`## /api against the reference door, ${GROUP_LABELS[group]} (ms; server CPU per request)`, '');
    out.push(
      table(['op', 'clients', '/api p50', 'ref p50', '/api / ref', '/api p95', 'ref p95', '/api CPU', 'ref CPU', 'CPU ratio'], cells),
      '',
    );
    for (const m of api.measurements.filter((x) => x.group === group && x.error)) out.push(`${m.door} ${m.op} ${m.clients}: ${m.error}`);
  }
  if (api.pages) {
    const p = api.pages;
    out.push(`## Pages from the same next start (SQLite), ${p.loads} loads`, '');
    out.push(
      `session page (${p.sessionEvents} events) TTFB p50 ${formatMs(p.sessionTtfbP50Ms)} ms; app page (${p.appSessions} sessions) ${formatMs(p.appTtfbP50Ms)} ms; server CPU per load ${p.serverCpuMsPerLoad === undefined ? 'n/a' : formatMs(p.serverCpuMsPerLoad)} ms`,
      `server RSS (MiB) ${p.rssMiB.map((r) => `${r.afterLoads}: ${r.mib.toFixed(0)}`).join(', ')}; growth after warm-up ${p.growthMiB.toFixed(1)} MiB`,
      '',
    );
    const split = p.rssMiB.filter((r) => r.heapTotalMiB !== undefined);
    if (split.length) {
      out.push(
        table(
          ['after loads', 'RSS', 'own RSS', 'V8 heap total', 'heap used', 'external', 'array buffers', 'RSS outside heap and external'],
          split.map((r) => [
            String(r.afterLoads),
            r.mib.toFixed(0),
            (r.rssOwnMiB ?? 0).toFixed(0),
            (r.heapTotalMiB ?? 0).toFixed(0),
            (r.heapUsedMiB ?? 0).toFixed(0),
            (r.externalMiB ?? 0).toFixed(0),
            (r.arrayBuffersMiB ?? 0).toFixed(0),
            ((r.rssOwnMiB ?? 0) - (r.heapTotalMiB ?? 0) - (r.externalMiB ?? 0)).toFixed(0),
          ]),
        ),
        '',
      );
    }
  } else if (api.pagesError) out.push(`Pages not measured: ${api.pagesError}`, '');
  return out;
}
