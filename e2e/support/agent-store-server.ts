// A console serving an agent's ADK database (STATEHOUSE_STORE), started by a
// spec on a port of its own from the build the run's web server made. Its
// own tables go to a fresh SQLite file beside the agent's.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from './database';

export interface AgentStoreServer {
  baseURL: string;
  stop(): Promise<void>;
}

/**
 * E2E_PORT + offset. Each console of a run has its own offset, since specs run in parallel:
 * 2 the kit's deployment (playwright/tests), 3 adk-rust, 4 adk-js live, 5-8 adk-python,
 * 9 and 10 adk-js on SQLite and PostgreSQL.
 */
export function agentStorePort(offset: number): number {
  return Number(process.env.E2E_PORT || 3100) + offset;
}

async function waitUntilUp(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The agent-store console exited (${child.exitCode}):\n${output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The agent-store console did not answer at ${url} within 60 s:\n${output()}`);
}

export async function startAgentStoreServer(options: { port: number; store: string; dir: string }): Promise<AgentStoreServer> {
  const baseURL = `http://127.0.0.1:${options.port}`;
  // A console already there would be another spec's, serving another store.
  const taken = await fetch(baseURL).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`Port ${options.port} is taken: another console answers at ${baseURL}.`);
  let output = '';
  const child = spawn('npx', ['next', 'start', '--hostname', '127.0.0.1', '--port', String(options.port)], {
    cwd: projectRoot,
    detached: true,
    env: {
      ...process.env,
      DATABASE_URL: `file:${join(options.dir, 'statehouse.db')}`,
      STATEHOUSE_STORE: options.store,
      STATEHOUSE_ROOT: projectRoot,
      STATEHOUSE_HOST: '127.0.0.1',
      NEXT_TELEMETRY_DISABLED: '1',
    },
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
  try {
    await waitUntilUp(`${baseURL}/apps`, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseURL, stop };
}
