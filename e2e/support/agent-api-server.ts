// The example agent (examples/adk-agent, scripted model) behind adk-js's real
// API server, started by a spec: `adk api_server` from @google/adk-devtools
// over an adk-js store (a SQLite file or a PostgreSQL database, the
// --session_service_uri it takes), or examples/adk-agent/api-server.ts over
// Statehouse's own database through StatehouseSessionService.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from './database';
import { e2ePort, e2eUrl, type E2eServer } from './ports';

export const AGENT_APP = 'adk-example';

export interface AgentApiServer {
  url: string;
  /** Creates a session the way a client of the server does (POST /apps/:app/users/:user/sessions). */
  createSession(userId: string, state: Record<string, unknown>): Promise<string>;
  stop(): Promise<void>;
}

export type AgentStore = { kind: 'adk-js'; sessionServiceUri: string } | { kind: 'native'; databaseUrl: string };

export async function startAgentApiServer(server: E2eServer, store: AgentStore): Promise<AgentApiServer> {
  const port = String(e2ePort(server));
  const url = e2eUrl(server);
  const [command, args, env] =
    store.kind === 'adk-js'
      ? [
          process.execPath,
          [
            join(projectRoot, 'node_modules', '@google', 'adk-devtools', 'dist', 'esm', 'cli_entrypoint.js'),
            'api_server',
            '--host',
            '127.0.0.1',
            '--port',
            port,
            '--session_service_uri',
            store.sessionServiceUri,
            join(projectRoot, 'examples', 'adk-agent', 'served'),
          ],
          {},
        ]
      : ['npx', ['tsx', join(projectRoot, 'examples', 'adk-agent', 'api-server.ts'), port], { DATABASE_URL: store.databaseUrl }];
  let output = '';
  const child = spawn(command, args, {
    cwd: projectRoot,
    detached: true,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The agent's API server exited (${child.exitCode}):\n${output}`);
    const up = await fetch(`${url}/list-apps`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The agent's API server did not answer within 90 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    stop,
    async createSession(userId, state) {
      const response = await fetch(`${url}/apps/${AGENT_APP}/users/${encodeURIComponent(userId)}/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ state }),
      });
      if (!response.ok) throw new Error(`The agent server refused to create a session: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { id: string }).id;
    },
  };
}
