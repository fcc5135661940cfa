// The /api door without Next: lib/http/door.ts's installDoor() in front of a
// plain node:http server that answers 404 to whatever the door passes on.
// What `next start` runs for a matched /api request, minus Next's process,
// so `--cpu-prof` shows Statehouse's own names. For profiling the door
// against bench/reference-door.ts; the bench's own figures come from next start.
// Run as `NODE_ENV=production DATABASE_URL=... node --import tsx bench/door-server.ts`;
// prints `listening <port>` once it answers.
import { watchEnvironmentWrites } from '../lib/env';
import { installDoor } from '../lib/http/door';
import { getStore } from '../lib/services';
import { runDoor } from './door-process';

runDoor(async () => {
  // As instrumentation.ts does in next start.
  watchEnvironmentWrites();
  await getStore();
  installDoor();
  return (_request, response) => {
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end('{"detail":"Not Found"}');
  };
});
