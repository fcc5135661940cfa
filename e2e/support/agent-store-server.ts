// A console serving an agent's ADK database (STATEHOUSE_STORE), started by a
// spec on a port of its own from the build the run's web server made. Its
// own tables go to a fresh SQLite file beside the agent's.
import { startConsole } from './console-server';
import type { E2eServer } from './ports';

export interface AgentStoreServer {
  baseURL: string;
  stop(): Promise<void>;
}

/** A console on `server`'s port (e2e/support/ports.ts) serving `store`, its own tables in `dir`. */
export async function startAgentStoreServer(options: {
  server: E2eServer | 'ephemeral';
  store: string;
  dir: string;
}): Promise<AgentStoreServer> {
  return startConsole({ server: options.server, dir: options.dir, env: { STATEHOUSE_STORE: options.store }, readyPath: '/apps' });
}
