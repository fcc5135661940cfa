// The example agent behind adk-js's own API server (`adk api_server`, from
// @google/adk-devtools), its sessions in Statehouse's database through the
// drop-in StatehouseSessionService. The CLI takes only a --session_service_uri
// it knows (memory://, a database URL for adk-js's DatabaseSessionService);
// the server's class takes any session service, so this is the CLI with one
// line changed. Usage (from the project root):
//   npx tsx examples/adk-agent/api-server.ts [port]
// Then point the console at it: STATEHOUSE_AGENT_SERVERS='[{"app":"adk-example","url":"http://127.0.0.1:8000"}]'.
import { join } from 'node:path';
import { AdkApiServer } from '@google/adk-devtools';
import { StatehouseSessionService } from '../../lib/agent-service';
import { databaseUrl } from '../../lib/config';

async function main(): Promise<void> {
  const port = Number(process.argv[2] ?? 8000);
  if (!Number.isInteger(port) || port < 0) throw new Error('The port must be a whole number.');
  const sessionService = new StatehouseSessionService({ databaseUrl: databaseUrl() });
  // served/ holds one agent file per app: served/adk-example.ts is the app adk-example.
  const server = new AdkApiServer({ agentsDir: join(import.meta.dirname, 'served'), host: '127.0.0.1', port, sessionService });
  await server.start();
  const stop = () => {
    void server.stop().finally(() => sessionService.close());
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
