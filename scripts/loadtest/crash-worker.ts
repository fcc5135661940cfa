// Appends events as fast as it can until it is killed: the victim of the
// kill -9 test (crash.test.ts). Usage: node --import tsx crash-worker.ts <databaseUrl> <appName> <writers>
// Prints "ready" once its sessions exist, then "ack <sessionId> <eventId>"
// after each append returns (stdout to a pipe is synchronous on Linux, so a
// printed ack is an append that had returned).
import { openServices } from '../../lib/services';
import type { SessionStore } from '../../lib/session-service';
import { appendEvent } from '../../lib/session-service/append';

async function writer(service: SessionStore, appName: string, index: number, round: string): Promise<never> {
  const userId = `user-${index % 2}`;
  const sessionId = `${round}-writer-${index}`;
  const session = await service.createSession({ appName, userId, sessionId, state: { writer: index } });
  process.stdout.write(`created ${sessionId}\n`);
  for (let n = 1; ; n += 1) {
    const id = `${sessionId}-${n}`;
    await appendEvent(service, session, {
      id,
      author: 'crash-worker',
      invocationId: id,
      content: { role: 'model', parts: [{ text: 'x'.repeat((n * 37) % 3000) }] },
      actions: {
        stateDelta: {
          n,
          [`key-${n % 7}`]: { n, padding: 'y'.repeat((n * 53) % 2000) },
          [`user:writer-${index}`]: n,
          'user:last': id,
          'app:last': id,
          'temp:scratch': n,
        },
      },
    });
    process.stdout.write(`ack ${sessionId} ${id}\n`);
  }
}

async function main(): Promise<void> {
  const [url, appName, writers, round] = process.argv.slice(2);
  if (!url || !appName || !writers || !round) throw new Error('usage: crash-worker.ts <databaseUrl> <appName> <writers> <round>');
  const { store: service } = await openServices(url, { migrate: false });
  process.stdout.write('ready\n');
  await Promise.all(Array.from({ length: Number(writers) }, (_, index) => writer(service, appName, index, round)));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
