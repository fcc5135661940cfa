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
  /**
   * Which of the run's servers it is: its port comes from e2e/support/ports.ts.
   * `ephemeral`: a port the system picks, read from Next's start-up line.
   */
  server: E2eServer | 'ephemeral';
  /** A folder of the spec's own: the console's SQLite file goes there. */
  dir: string;
  env?: Record<string, string>;
  /** The path that answers once the console is up (default `/sign-in` for protected consoles). */
  readyPath?: string;
}

/** The console's address once it answers `readyPath`; an ephemeral one once Next has said where it listens. */
async function waitUntilUp(baseURL: string | null, readyPath: string, child: ChildProcess, output: () => string): Promise<string> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The console exited (${child.exitCode}):\n${output()}`);
    const url = baseURL ?? /Local:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output())?.[1];
    try {
      if (url && (await fetch(url + readyPath)).ok) return url;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The console did not answer ${readyPath} within 60 s:\n${output()}`);
}

export async function startConsole(options: ConsoleOptions): Promise<ConsoleServer> {
  const { server } = options;
  const port = server === 'ephemeral' ? 0 : e2ePort(server);
  const listedURL = server === 'ephemeral' ? null : e2eUrl(server);
  // A console already there would be another spec's, on another database.
  const taken =
    listedURL !== null &&
    (await fetch(listedURL).then(
      () => true,
      () => false,
    ));
  if (taken) throw new Error(`Port ${port} is taken: another console answers at ${listedURL}.`);
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
  let baseURL: string;
  try {
    baseURL = await waitUntilUp(listedURL, options.readyPath ?? '/sign-in', child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseURL, databaseUrl, stop };
}
