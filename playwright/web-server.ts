// The `webServer` entry of a suite's playwright.config.ts that starts an
// embedded Statehouse for the run, and points the fixtures at it.
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface StatehouseWebServerOptions {
  /** Default 3400. */
  port?: number;
  /** A database for the run (STATEHOUSE_DATABASE_URL; never the suite's own DATABASE_URL); default a fresh SQLite file, removed when the server stops. */
  databaseUrl?: string;
  /** Reuse a console already listening on the port (default: outside CI). */
  reuseExistingServer?: boolean;
  /** Milliseconds to wait for the first start, which builds the console (default 5 minutes). */
  timeout?: number;
}

/** Playwright's webServer config shape (kept local so the config file needs no type import). */
export interface WebServerEntry {
  command: string;
  url: string;
  env: Record<string, string>;
  reuseExistingServer: boolean;
  timeout: number;
  stdout: 'pipe' | 'ignore';
  stderr: 'pipe' | 'ignore';
  /** Without it Playwright stops the server with SIGKILL, and the server could not remove its database. */
  gracefulShutdown: { signal: 'SIGTERM' | 'SIGINT'; timeout: number };
}

/**
 * A webServer entry running the console from the installed Statehouse package
 * (`statehouse-test-server`); sets STATEHOUSE_URL for the workers. With
 * STATEHOUSE_URL already set (a shared deployment) no console is started: the
 * entry only waits for the deployment to answer, and fails if it does not.
 */
export function statehouseWebServer(options: StatehouseWebServerOptions = {}): WebServerEntry {
  const deployment = process.env.STATEHOUSE_URL;
  if (deployment) {
    const message = `statehouse: STATEHOUSE_URL=${deployment} does not answer; no embedded console is started when it is set.`;
    return {
      command: `node -e "console.error(process.argv[1]); process.exit(1)" ${JSON.stringify(message)}`,
      // A 401 or 403 from a protected deployment counts as answering, for Playwright.
      url: `${deployment.replace(/\/+$/, '')}/api/list-apps`,
      env: {},
      reuseExistingServer: true,
      timeout: options.timeout ?? 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    };
  }
  const port = options.port ?? 3400;
  const url = `http://127.0.0.1:${port}`;
  process.env.STATEHOUSE_URL = url;
  // Beside this file in the sources, one folder up from the build in dist/.
  const here = dirname(fileURLToPath(import.meta.url));
  const script = join(basename(here) === 'dist' ? dirname(here) : here, 'serve.mjs');
  return {
    command: `node "${script}" --port ${port}`,
    // Reading the API means the server is up and its database migrated.
    url: `${url}/api/list-apps`,
    env: options.databaseUrl ? { STATEHOUSE_DATABASE_URL: options.databaseUrl } : {},
    reuseExistingServer: options.reuseExistingServer ?? !process.env.CI,
    timeout: options.timeout ?? 5 * 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  };
}
