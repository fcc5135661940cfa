// A production server of the console (`next start` on an existing build) on
// its own port and database, for the load test: started, killed with
// SIGKILL, restarted on the same port, stopped.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 60_000;

const nextCli = () => createRequire(import.meta.url).resolve('next/dist/bin/next');

/** The build directory: NEXT_DIST_DIR as next.config.js reads it, relative to the project root. */
export function distDirOf(distDir = process.env.NEXT_DIST_DIR || '.next'): string {
  return resolve(PROJECT_ROOT, distDir);
}

/** Builds the console into `distDir` unless a build is there already. */
export function ensureBuild(distDir: string, log: (line: string) => void): void {
  if (existsSync(join(distDirOf(distDir), 'BUILD_ID'))) return;
  log(`No production build in ${distDir}: running next build (a minute or two)...`);
  // next build adds `<distDir>/types/**/*.ts` to tsconfig.json's include for any
  // distDir but .next; the checkout must come out of a benchmark as it went in.
  const tsconfigPath = join(PROJECT_ROOT, 'tsconfig.json');
  const tsconfig = readFileSync(tsconfigPath, 'utf8');
  const result = spawnSync(process.execPath, [nextCli(), 'build'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: 'inherit',
  });
  if (readFileSync(tsconfigPath, 'utf8') !== tsconfig) writeFileSync(tsconfigPath, tsconfig);
  if (result.status !== 0) throw new Error(`next build failed (exit code ${result.status}).`);
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((done) => server.listen(0, HOST, done));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

export interface ServerOptions {
  databaseUrl: string;
  /** Node's own flags for the server process (`--cpu-prof`, which NODE_OPTIONS refuses). */
  nodeArgs?: string[];
  distDir: string;
  port: number;
  /** Sent while waiting for the server to answer (protected mode needs it). */
  token: string;
  env?: Record<string, string>;
}

export class ProductionServer {
  private child: ChildProcess | undefined;
  private output = '';
  readonly baseUrl: string;

  constructor(private readonly options: ServerOptions) {
    this.baseUrl = `http://${HOST}:${options.port}`;
  }

  /** Starts `next start` and waits until the API answers with the database behind it. */
  async start(): Promise<void> {
    const { databaseUrl, distDir, port, env, nodeArgs = [] } = this.options;
    const child = spawn(process.execPath, [...nodeArgs, nextCli(), 'start', '--hostname', HOST, '--port', String(port)], {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        NEXT_DIST_DIR: distDir,
        STATEHOUSE_HOST: HOST,
        STATEHOUSE_ROOT: PROJECT_ROOT,
        NEXT_TELEMETRY_DISABLED: '1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child = child;
    await this.waitUntilReady();
  }

  private async waitUntilReady(): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    let last = 'no answer';
    while (Date.now() < deadline) {
      if (this.child?.exitCode !== null) throw new Error(`The server exited while starting:\n${this.log()}`);
      try {
        const response = await fetch(`${this.baseUrl}/api/list-apps`, { headers: { authorization: `Bearer ${this.options.token}` } });
        if (response.ok) return;
        last = `${response.status} ${await response.text()}`;
      } catch (error) {
        last = error instanceof Error ? error.message : String(error);
      }
      await new Promise((done) => setTimeout(done, 100));
    }
    throw new Error(`The server did not answer within ${READY_TIMEOUT_MS / 1000} s (last: ${last}):\n${this.log()}`);
  }

  /** The `next start` process (undefined when not running). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** SIGKILL: no shutdown, requests cut off mid-flight. */
  async kill(): Promise<void> {
    await this.signal('SIGKILL');
  }

  async stop(): Promise<void> {
    await this.signal('SIGTERM');
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.kill(signal);
    await exited;
  }

  /** The server's output so far (the tail), for error messages. */
  log(): string {
    return this.output.slice(-4000);
  }
}
