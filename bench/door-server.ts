// The /api door without Next: lib/http/door.ts's installDoor() in front of a
// plain node:http server that answers 404 to whatever the door passes on.
// What `next start` runs for a matched /api request, minus Next's process,
// so `--cpu-prof` shows Statehouse's own names. For profiling the door
// against bench/reference-door.ts; the bench's own figures come from next start.
// Run as `NODE_ENV=production DATABASE_URL=... node --import tsx bench/door-server.ts`;
// prints `listening <port>` once it answers.
import { createServer } from 'node:http';
import { installDoor } from '../lib/http/door';
import { getStore } from '../lib/services';

async function main(): Promise<void> {
  await getStore();
  installDoor();
  const server = createServer((_request, response) => {
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end('{"detail":"Not Found"}');
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
  });
}

// A profile (--cpu-prof) is written only on a normal exit.
process.on('SIGTERM', () => process.exit(0));

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
