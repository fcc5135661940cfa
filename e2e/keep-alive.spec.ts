// A kept-alive connection outlives Node's default 5 s of idleness: a client
// (a load balancer, Playwright's own request context) that sends its next
// request on it after a pause must get an answer, not a reset from a server
// closing the connection at that moment.
import { connect, type Socket } from 'node:net';
import { expect, test } from './fixtures';

/** Sends one request on the socket and resolves with the status line of the answer, or rejects when the server closed it. */
function ask(socket: Socket, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    if (socket.destroyed || socket.readableEnded) {
      reject(new Error('the server had closed the connection'));
      return;
    }
    let received = '';
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(received)?.[1];
      const whole = length === undefined ? received.endsWith('\r\n0\r\n\r\n') : received.length >= end + 4 + Number(length);
      if (end >= 0 && whole) {
        socket.off('data', onData);
        socket.off('close', onClose);
        socket.off('error', reject);
        resolve(received.slice(0, received.indexOf('\r\n')));
      }
    };
    const onClose = () => reject(new Error(`the server closed the connection; received ${JSON.stringify(received)}`));
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.once('error', reject);
    socket.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
  });
}

test('a connection idle for longer than 5 s still carries the next request', async ({ baseURL }) => {
  const url = new URL(baseURL ?? '');
  const socket = connect(Number(url.port), url.hostname);
  try {
    expect(await ask(socket, url.host)).toBe('HTTP/1.1 200 OK');
    await new Promise((resolve) => setTimeout(resolve, 6_500));
    expect(await ask(socket, url.host)).toBe('HTTP/1.1 200 OK');
  } finally {
    socket.destroy();
  }
});
