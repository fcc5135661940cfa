// A PostgreSQL wire proxy, run as a process of its own (bench/client-cpu.ts
// forks it) so its CPU is not the client's. It first forwards to the server
// and records, per statement text, what the server answered; told to replay
// (an IPC message), it answers new connections itself from those records,
// at once or after a delay, with no database work behind them. What the
// client then spends is its own work alone, warm or after a wait.
import { createServer, connect, type Socket } from 'node:net';

type Frame = { type: string | null; bytes: Buffer };

/** Splits a stream into protocol messages; the client's first one (startup) has no type byte. */
function framer(onFrame: (frame: Frame) => void, startup: boolean): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  let first = startup;
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      const head = first ? 0 : 1;
      if (pending.length < head + 4) return;
      const end = head + pending.readInt32BE(head);
      if (pending.length < end) return;
      onFrame({ type: first ? null : String.fromCharCode(pending[0] ?? 0), bytes: pending.subarray(0, end) });
      pending = pending.subarray(end);
      first = false;
    }
  };
}

/** The NUL-terminated string at `at`, and where the next field starts. */
function cstring(bytes: Buffer, at: number): [string, number] {
  const end = bytes.indexOf(0, at);
  return [bytes.toString('utf8', at, end), end + 1];
}

function message(type: string, body: Buffer): Buffer {
  const out = Buffer.alloc(5 + body.length);
  out.write(type, 0, 'latin1');
  out.writeInt32BE(4 + body.length, 1);
  body.copy(out, 5);
  return out;
}

const PARSE_COMPLETE = message('1', Buffer.alloc(0));
const READY = message('Z', Buffer.from('I'));

/** The statement texts a client's messages name: Parse gives a statement its text, Bind names the statement it runs. */
function statementTracker(): (frame: Frame) => { text: string | undefined; parsed: boolean } | null {
  const texts = new Map<string, string>();
  let current: string | undefined;
  let parsed = false;
  return ({ type, bytes }) => {
    if (type === 'P') {
      const [name, at] = cstring(bytes, 5);
      texts.set(name, cstring(bytes, at)[0]);
      parsed = true;
    } else if (type === 'B') {
      const [, at] = cstring(bytes, 5);
      current = texts.get(cstring(bytes, at)[0]);
    } else if (type === 'Q') {
      return { text: cstring(bytes, 5)[0], parsed: false };
    } else if (type === 'S') {
      const batch = { text: current, parsed };
      parsed = false;
      return batch;
    }
    return null;
  };
}

const answers = new Map<string, Buffer>();
let replay: { delayMs: number } | null = null;

function record(client: Socket, upstreamPort: number, upstreamHost: string): void {
  const upstream = connect(upstreamPort, upstreamHost);
  upstream.setNoDelay(true);
  const asked: (string | undefined)[] = [];
  const track = statementTracker();
  let answer: Buffer[] = [];
  client.on(
    'data',
    framer((frame) => {
      const batch = track(frame);
      if (batch) asked.push(batch.text);
    }, true),
  );
  upstream.on(
    'data',
    framer(({ type, bytes }) => {
      if (asked.length === 0) return; // the startup's answers
      // Kept without ParseComplete: a replay adds it when the client asked for a Parse.
      if (type !== '1') answer.push(bytes);
      if (type !== 'Z') return;
      const text = asked.shift();
      if (text !== undefined) answers.set(text, Buffer.concat(answer));
      answer = [];
    }, false),
  );
  client.on('data', (chunk: Buffer) => upstream.write(chunk));
  upstream.on('data', (chunk: Buffer) => client.write(chunk));
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
  upstream.on('error', () => client.destroy());
}

function answer(client: Socket, delayMs: number): void {
  const track = statementTracker();
  client.on(
    'data',
    framer((frame) => {
      if (frame.type === null) {
        // AuthenticationOk, BackendKeyData, ReadyForQuery.
        client.write(Buffer.concat([message('R', Buffer.alloc(4)), message('K', Buffer.alloc(8)), READY]));
        return;
      }
      if (frame.type === 'X') return void client.end();
      const batch = track(frame);
      if (!batch) return;
      const recorded = batch.text === undefined ? undefined : answers.get(batch.text);
      if (!recorded) {
        process.stderr.write(`pg-replay: nothing recorded for ${batch.text?.slice(0, 80) ?? '(unknown statement)'}\n`);
        return void client.destroy();
      }
      const bytes = batch.parsed ? Buffer.concat([PARSE_COMPLETE, recorded]) : recorded;
      if (delayMs > 0) setTimeout(() => client.write(bytes), delayMs);
      else client.write(bytes);
    }, true),
  );
}

const [upstreamHost = '127.0.0.1', upstreamPort = '5432'] = (process.argv[2] ?? '').split(':');
const server = createServer((client) => {
  client.setNoDelay(true);
  client.on('error', () => client.destroy());
  if (replay) answer(client, replay.delayMs);
  else record(client, Number(upstreamPort), upstreamHost);
});
process.on('message', (command: { replay?: number }) => {
  if (command.replay !== undefined) replay = { delayMs: command.replay };
  process.send?.({ replaying: command.replay, statements: answers.size });
});
process.on('disconnect', () => process.exit(0));
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ listening: typeof address === 'object' && address ? address.port : 0 });
});
