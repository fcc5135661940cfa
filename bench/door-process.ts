// What both bench doors run as a process of their own: a plain node:http
// server on a loopback port (DOOR_PORT, or an ephemeral one), announced on
// stdout for the parent (bench/implementations/statehouse-api.ts) to read.
import { createServer, type RequestListener } from 'node:http';

/** Starts the door `start` builds and prints `listening <port>` once it answers; a failed start exits 1. */
export function runDoor(start: () => Promise<RequestListener>): void {
  // A profile (--cpu-prof) is written only on a normal exit.
  process.on('SIGTERM', () => process.exit(0));
  start()
    .then((listener) => {
      const server = createServer(listener);
      server.keepAliveTimeout = 60_000;
      server.listen(Number(process.env.DOOR_PORT ?? 0), '127.0.0.1', () => {
        const address = server.address();
        process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
      });
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
