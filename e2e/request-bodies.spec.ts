// Large request bodies before sign-in: refused at the door, before Next
// copies them, and dropped as they arrive until the connection is cut. The
// protected server's resident memory is measured around a burst of them.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as http } from 'node:http';
import { expect, test } from './auth-fixtures';

const BODY_BYTES = 11 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'a');

function serverPid(url: string): number {
  const port = new URL(url).port;
  const listening = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
  const pid = /pid=(\d+)/.exec(listening)?.[1];
  if (!pid) throw new Error(`No process listens on port ${port}: ${listening}`);
  return Number(pid);
}

function rssBytes(pid: number): number {
  const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kib) * 1024;
}

interface Sent {
  status: number;
  /** Body bytes the server accepted before it answered (or closed). */
  written: number;
}

/** POSTs a large body as fast as the server takes it; stops when the answer arrives. */
function postLarge(base: string, path: string, headers: Record<string, string>, declareLength = true): Promise<Sent> {
  const url = new URL(base);
  return new Promise((resolve) => {
    let written = 0;
    let status = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve({ status, written });
    };
    const sent = http({
      host: url.hostname,
      port: url.port,
      method: 'POST',
      path,
      headers: { 'content-type': 'text/plain', ...(declareLength ? { 'content-length': String(BODY_BYTES) } : {}), ...headers },
    });
    sent.on('response', (response) => {
      status = response.statusCode ?? 0;
      response.resume();
      response.on('end', finish);
      sent.destroy();
      finish();
    });
    sent.on('error', finish);
    sent.on('close', finish);
    const pump = () => {
      while (!done && written < BODY_BYTES) {
        written += CHUNK.length;
        if (!sent.write(CHUNK)) return void sent.once('drain', pump);
      }
      if (!done) sent.end();
    };
    pump();
  });
}

test('large bodies before sign-in are refused before they arrive, and cost no memory', async ({ protectedUrl }) => {
  test.setTimeout(120_000);
  const pid = serverPid(protectedUrl);
  const targets: { path: string; headers: Record<string, string>; status: number }[] = [
    { path: '/sign-in', headers: { 'next-action': 'deadbeef' }, status: 413 },
    { path: '/api/apps/a/users/u/sessions', headers: {}, status: 413 },
    // A credential that proves nobody is no better than none.
    {
      path: '/api/apps/a/users/u/sessions',
      headers: { authorization: 'Bearer sht_forged-but-shaped-like-a-token-0000000000' },
      status: 413,
    },
    { path: '/apps', headers: { cookie: 'statehouse_session=shs_forged-but-shaped-like-a-cookie-000000000' }, status: 413 },
  ];
  for (const target of targets) {
    const chunked = await postLarge(protectedUrl, target.path, target.headers, false);
    expect(chunked.status, `${target.path} chunked`).toBe(target.status);
  }

  const before = rssBytes(pid);
  const burst = await Promise.all(
    Array.from({ length: 120 }, (_, index) => {
      const target = targets[index % targets.length]!;
      return postLarge(protectedUrl, target.path, target.headers).then((sent) => ({ ...sent, expected: target.status }));
    }),
  );
  const after = rssBytes(pid);
  for (const sent of burst) expect(sent.status).toBe(sent.expected);
  const sentBytes = burst.reduce((sum, sent) => sum + sent.written, 0);
  console.log(
    `120 anonymous ${BODY_BYTES / 2 ** 20} MiB bodies: ${(sentBytes / 2 ** 20).toFixed(1)} MiB sent before the answers; server RSS ${(before / 2 ** 20).toFixed(0)} -> ${(after / 2 ** 20).toFixed(0)} MiB`,
  );
  // Before the door check each body was read (and buffered) in full: 1.3 GB here.
  expect(after - before).toBeLessThan(150 * 2 ** 20);
});
