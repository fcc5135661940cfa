// The targets, checked on ratios from one run.
import type { Group, Measurement, RunResult } from './results';

export interface TargetCheck {
  group: Group | 'dashboard';
  target: string;
  measured: string;
  /** null: not measured in this run. */
  pass: boolean | null;
}

export const SPEEDUP_VS_ADK = 10;
export const MAX_RATIO_TO_FLOOR = 1.3;
export const MAX_SESSION_PAGE_RATIO = 1.5;
export const MAX_FLAT_RATIO = 1.2;
export const MAX_HTTP_OVERHEAD_MS = 0.5;
export const MAX_LENGTH_RATIO = 1.5;
export const MAX_PAGE_RATIO = 1.5;
export const MAX_SESSION_PAGE_TTFB_MS = 300;

/** The workloads the speed targets apply to. */
const SPEED_WORKLOADS = ['create', 'append', 'get-recent-big'];

/** The doors agents use, and the domain store behind them. */
const DOORS = [
  ['statehouse-adk', 'agent-service'],
  ['statehouse-api', '/api'],
  ['statehouse', 'store'],
] as const;

export function find(measurements: Measurement[], group: Group, impl: string, workload: string): Measurement | undefined {
  return measurements.find((m) => m.group === group && m.impl === impl && m.workload === workload && m.error === undefined);
}

function ratio(a: Measurement | undefined, b: Measurement | undefined): number | null {
  return a && b && b.msPerOp > 0 ? a.msPerOp / b.msPerOp : null;
}

function fixed(value: number | null, digits = 2): string {
  return value === null ? 'n/a' : `${value.toFixed(digits)}x`;
}

export function checkTargets(run: RunResult): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const m = run.measurements;
  for (const group of run.groups) {
    for (const [door, label] of DOORS) {
      for (const workload of SPEED_WORKLOADS) {
        const sh = find(m, group, door, workload);
        if (!sh) continue;
        const speedup = ratio(find(m, group, 'adk-db', workload), sh);
        checks.push({
          group,
          target: `${label} ${workload}: >= ${SPEEDUP_VS_ADK}x ADK database service`,
          measured: speedup === null ? 'n/a' : `${speedup.toFixed(1)}x`,
          pass: speedup === null ? null : speedup >= SPEEDUP_VS_ADK,
        });
        for (const floor of ['raw', 'simple'] as const) {
          const toFloor = ratio(sh, find(m, group, floor, workload));
          checks.push({
            group,
            target: `${label} ${workload}: <= ${MAX_RATIO_TO_FLOOR}x ${floor} floor`,
            measured: fixed(toFloor),
            pass: toFloor === null ? null : toFloor <= MAX_RATIO_TO_FLOOR,
          });
        }
      }
      const growth = find(m, group, door, 'append-growth')?.growth;
      if (growth !== undefined) {
        checks.push({
          group,
          target: `${label} append growth, last tenth / first tenth <= ${MAX_FLAT_RATIO}x`,
          measured: fixed(growth),
          pass: growth <= MAX_FLAT_RATIO,
        });
      }
    }
    const big = `session-page-${run.scale.listAppSessions}`;
    for (const workload of ['session-page-user', big]) {
      const door = find(m, group, 'statehouse-adk', workload);
      for (const floor of ['raw', 'simple'] as const) {
        const toFloor = ratio(door, find(m, group, floor, workload));
        if (toFloor === null) continue;
        checks.push({
          group,
          target: `agent-service ${workload}: <= ${MAX_SESSION_PAGE_RATIO}x ${floor} floor`,
          measured: fixed(toFloor),
          pass: toFloor <= MAX_SESSION_PAGE_RATIO,
        });
      }
    }
    const sessionPages = run.scale.pageCounts.map((count) => find(m, group, 'statehouse-adk', `session-page-${count}`));
    const [smallest, largest] = [sessionPages[0], sessionPages.at(-1)];
    if (smallest && largest && sessionPages.length > 1) {
      const flat = largest.msPerOp / smallest.msPerOp;
      checks.push({
        group,
        target: `agent-service listSessions page: ${run.scale.pageCounts.at(-1)} vs ${run.scale.pageCounts[0]} sessions <= ${MAX_FLAT_RATIO}x`,
        measured: fixed(flat),
        pass: flat <= MAX_FLAT_RATIO,
      });
    }
    const api = find(m, group, 'statehouse-api', 'append');
    const store = find(m, group, 'statehouse', 'append');
    if (api && store) {
      const overhead = api.msPerOp - store.msPerOp;
      checks.push({
        group,
        target: `/api append: HTTP overhead over the in-process call < ${MAX_HTTP_OVERHEAD_MS} ms`,
        measured: `${overhead.toFixed(2)} ms`,
        pass: overhead < MAX_HTTP_OVERHEAD_MS,
      });
    }
    const lengthRatio = ratio(find(m, group, 'statehouse', 'get-recent-big'), find(m, group, 'statehouse', 'get-recent-small'));
    if (lengthRatio !== null) {
      checks.push({
        group,
        target: `get-recent: ${run.scale.bigEvents} vs ${run.scale.smallEvents} events <= ${MAX_LENGTH_RATIO}x`,
        measured: fixed(lengthRatio),
        pass: lengthRatio <= MAX_LENGTH_RATIO,
      });
    }
    const pages = run.scale.pageCounts.map((count) => find(m, group, 'statehouse', `list-page-${count}`));
    const first = pages[0];
    const last = pages.at(-1);
    if (first && last && pages.length > 1) {
      const pageRatio = last.msPerOp / first.msPerOp;
      checks.push({
        group,
        target: `list page: ${run.scale.pageCounts.at(-1)} vs ${run.scale.pageCounts[0]} sessions <= ${MAX_PAGE_RATIO}x`,
        measured: fixed(pageRatio),
        pass: pageRatio <= MAX_PAGE_RATIO,
      });
    }
    const concurrent = find(m, group, 'statehouse', 'concurrent');
    if (concurrent) {
      checks.push({
        group,
        target: 'concurrent appends: zero lost writes, zero failures',
        measured: `${concurrent.lost ?? 0} lost, ${concurrent.failed ?? 0} failed`,
        pass: (concurrent.lost ?? 0) === 0 && (concurrent.failed ?? 0) === 0,
      });
    }
  }
  const sessionPage = run.dashboard?.pages.find((p) => p.kind === 'session');
  if (sessionPage) {
    checks.push({
      group: 'dashboard',
      target: `session page TTFB (${run.dashboard?.sessionEvents} events, ${run.dashboard?.provider}) < ${MAX_SESSION_PAGE_TTFB_MS} ms`,
      measured: `${sessionPage.ttfbMs.toFixed(0)} ms (HTTP ${sessionPage.status})`,
      pass: sessionPage.status === 200 && sessionPage.ttfbMs < MAX_SESSION_PAGE_TTFB_MS,
    });
  }
  return checks;
}
