// Starts Next's own CLI (`next dev` or `next start`) on HOST:PORT, telling
// the app which address it listens on (STATEHOUSE_HOST): local mode, with
// no sign-in, is only possible on a loopback address (lib/auth/config.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { authConfig } from '../lib/config';

export const DEFAULT_HOST = '127.0.0.1';

export function startNext(command: 'dev' | 'start', options: { host?: string; port?: string } = {}): ChildProcess {
  const host = options.host ?? (process.env.HOST?.trim() || DEFAULT_HOST);
  const port = options.port ?? (process.env.PORT?.trim() || '3000');
  process.env.STATEHOUSE_HOST = host;
  // Fails here, before the server starts, on settings it cannot honour.
  console.log(`Access: ${authConfig().reason}\n`);
  // Next's own CLI script, run with this Node: no shell and no .bin shim, so it works the same on every OS.
  const nextCli = createRequire(import.meta.url).resolve('next/dist/bin/next');
  const server = spawn(process.execPath, [nextCli, command, '--hostname', host, '--port', port], {
    stdio: 'inherit',
  });
  // Ctrl-C reaches the server through the terminal; a signal sent to this process alone is passed on.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (server.exitCode === null) server.kill(signal);
    });
  }
  server.on('exit', (code, signal) => {
    process.exit(code ?? (signal ? 0 : 1));
  });
  return server;
}

// npm run dev / npm start
const command = process.argv[2];
if (command === 'dev' || command === 'start') startNext(command);
