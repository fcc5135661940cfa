// A console serving an agent's ADK database (STATEHOUSE_STORE), started by a
// spec on a port of its own from the build the run's web server made. Its
// own tables go to a fresh SQLite file beside the agent's.
import { startConsole } from './console-server';

export interface AgentStoreServer {
  baseURL: string;
  stop(): Promise<void>;
}

/**
 * E2E_PORT + offset. Each console of a run has its own offset, since specs run in parallel:
 * 2 the kit's deployment (playwright/tests), 3 adk-rust, 4 adk-js live, 5-8 adk-python,
 * 9 and 10 adk-js on SQLite and PostgreSQL, 11 the client-address console.
 */
export function agentStorePort(offset: number): number {
  return Number(process.env.E2E_PORT || 3100) + offset;
}

export async function startAgentStoreServer(options: { port: number; store: string; dir: string }): Promise<AgentStoreServer> {
  return startConsole({ port: options.port, dir: options.dir, env: { STATEHOUSE_STORE: options.store }, readyPath: '/apps' });
}
