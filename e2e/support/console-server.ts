// A console of a spec's own, started from the build the run's web server
// made, with the environment the spec gives it (on top of a fresh SQLite
// database of its own in `dir`) and stopped when the spec is done.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from './database';
import { e2ePort, e2eUrl, type E2eServer } from './ports';

export interface ConsoleServer {
  baseURL: string;
  /** Its own database, for the spec's fixtures. */
  databaseUrl: string;
  stop(): Promise<void>;
}

export interface ConsoleOptions {
  /** Which of the run's servers it is: its port comes from e2e/support/ports.ts. */
  server: E2eServer;
  /** A folder of the spec's own: the console's SQLite file goes there. */
  dir: string;
  env?: Record<string, string>;
  /** The path that answers once the console is up (default `/sign-in` for protected consoles). */
  readyPath?: string;
}

async function waitUntilUp(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The console exited (${child.exitCode}):\n${output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The console did not answer at ${url} within 60 s:\n${output()}`);
}

export async function startConsole(options: ConsoleOptions): Promise<ConsoleServer> {
  const port = e2ePort(options.server);
  const baseURL = e2eUrl(options.server);
  // A console already there would be another spec's, on another database.
  const taken = await fetch(baseURL).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`Port ${port} is taken: another console answers at ${baseURL}.`);
  const databaseUrl = `file:${join(options.dir, 'statehouse.db')}`;
  let output = '';
  const child = spawn('npx', ['next', 'start', '--hostname', '127.0.0.1', '--port', String(port)], {
    cwd: projectRoot,
    detached: true,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      STATEHOUSE_ROOT: projectRoot,
      STATEHOUSE_HOST: '127.0.0.1',
      NEXT_TELEMETRY_DISABLED: '1',
      ...options.env,
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
    await waitUntilUp(baseURL + (options.readyPath ?? '/sign-in'), child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseURL, databaseUrl, stop };
}
