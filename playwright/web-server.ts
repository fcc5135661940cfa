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
}

/**
 * A webServer entry running the console from the installed Statehouse package
 * (`statehouse-test-server`); sets STATEHOUSE_URL for the workers unless it is
 * already set (a shared deployment wins, and then no server is needed).
 */
export function statehouseWebServer(options: StatehouseWebServerOptions = {}): WebServerEntry {
  const port = options.port ?? 3400;
  const url = `http://127.0.0.1:${port}`;
  process.env.STATEHOUSE_URL ??= url;
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
  };
}
