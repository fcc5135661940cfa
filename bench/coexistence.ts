// `npm run bench -- --coexistence`: a live adk-js agent (the real Runner over
// adk-js's DatabaseSessionService, processes of their own) and 1 or 8 console
// writers on the same store, on SQLite and PostgreSQL: agent failures per
// 1,000 agent appends, and the console's own failures.
import { adkJsService } from '../lib/testing/adk-fixtures';
import { runCoexistence, type CoexistenceResult } from '../lib/testing/coexistence';
import { openAdkStore } from '../lib/stores/adk';
import type { Scratch } from './scratch';

export interface CoexistenceRun extends CoexistenceResult {
  provider: 'sqlite' | 'postgresql';
  agents: number;
  writers: number;
  seconds: number;
}

const SECONDS = 20;

export async function runCoexistenceBench(
  providers: ('sqlite' | 'postgresql')[],
  scratch: Scratch,
  log: (line: string) => void,
): Promise<CoexistenceRun[]> {
  const runs: CoexistenceRun[] = [];
  for (const provider of providers) {
    // Two agents on PostgreSQL (sessions of one user); one on SQLite, where agents also wait on each other.
    const agents = provider === 'sqlite' ? 1 : 2;
    for (const writers of [1, 8]) {
      log(`coexistence: ${provider}, ${agents} agent(s), ${writers} console writer(s), ${SECONDS} s`);
      const url = await scratch.url(provider, `coexist${writers}`);
      await (await adkJsService(url)).close();
      const store = await openAdkStore(url);
      try {
        const result = await runCoexistence({ url, store, agents, writers, writeIntervalMs: 0, durationMs: SECONDS * 1000 });
        runs.push({ provider, agents, writers, seconds: SECONDS, ...result });
      } finally {
        await store.close();
      }
    }
  }
  return runs;
}

export function formatCoexistence(runs: CoexistenceRun[]): string {
  const lines = [
    'A live adk-js agent and console writers on one store (writers as fast as the store answers):',
    '| database | agents | console writers | agent appends | agent failures | per 1,000 | agent reads failed | console writes | console failures |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const run of runs) {
    lines.push(
      `| ${run.provider} | ${run.agents} | ${run.writers} | ${run.agent.ok + run.agent.failed} | ${run.agent.failed} | ${run.agentFailuresPerThousand} | ${run.agentOther.failed} | ${run.console.ok + run.console.failed} | ${run.console.failed} |`,
    );
  }
  return lines.join('\n');
}
