// What a run records: the JSON written to bench-results/ and what the table is printed from.
import type { CoexistenceRun } from './coexistence';
import type { TimeTravelResult } from './time-travel';
import type { LongReadsResult } from './long-reads';
import type { LargeValuesResult } from './large-values';
import type { SearchBenchResult } from './search';
import type { ApiResult } from './api';
import type { DashboardResult } from './dashboard';
import type { ProbeResult } from './memory-probe';
import type { Group, ImplName } from './implementations/types';
import type { Scale } from './options';
import type { QueryOverhead, StatementProfile } from './profile';

export type { Group };

export interface Measurement {
  group: Group;
  impl: ImplName;
  workload: string;
  title: string;
  /** Median over rounds of each round's mean milliseconds per operation. */
  msPerOp: number;
  /** Each round's mean milliseconds per operation, in round order. */
  roundsMsPerOp: number[];
  /** Median over rounds of this process's CPU milliseconds per operation (PostgreSQL's own work not included). */
  cpuMsPerOp: number;
  /** 95th percentile of single-operation latencies, all rounds pooled. */
  p95Ms: number;
  opsPerRound: number;
  /** Concurrent workload: acknowledged writes missing afterwards, and appends that threw (all rounds). */
  lost?: number;
  failed?: number;
  failures?: string[];
  /** Growth workload: p50 of the last tenth of the appends / p50 of the first tenth. */
  growth?: number;
  /** Set when the implementation could not run the workload; no timing then. */
  error?: string;
}

export interface MemoryResult extends ProbeResult {
  group: Group;
  impl: ImplName;
}

export interface RunResult {
  startedAt: string;
  /** git commit of the work tree measured ("+": with uncommitted changes). */
  commit: string;
  durationS: number;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGb: number;
    node: string;
    platform: string;
    loadAverage: number[];
    loadAverageAtEnd?: number[];
  };
  scale: Scale;
  /** synchronous_commit of the scratch PostgreSQL databases. */
  pgSynchronousCommit: boolean;
  groups: Group[];
  measurements: Measurement[];
  profiles: StatementProfile[];
  overheads: QueryOverhead[];
  memory: MemoryResult[];
  memoryErrors: string[];
  dashboard: DashboardResult | null;
  dashboardError?: string;
  /** --api: /api against the reference door, and the page loads. */
  api?: ApiResult;
  timeTravel?: TimeTravelResult;
  longReads?: LongReadsResult;
  search?: SearchBenchResult;
  coexistence?: CoexistenceRun[];
  largeValues?: LargeValuesResult;
}
