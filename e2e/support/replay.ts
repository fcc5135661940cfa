// Posts a request as a script would, from a loopback address of the test's
// choosing (Linux answers on all of 127.0.0.0/8), so a spec can play clients
// and proxies at different socket addresses against one console.
import { request as httpRequest } from 'node:http';
import type { Page, Request } from '@playwright/test';

export interface Sent {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export function send(
  sent: Sent,
  options: { from?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<Answer> {
  const body = options.body === undefined ? sent.body : Buffer.from(options.body);
  const headers: Record<string, string> = { ...sent.headers, ...options.headers, 'content-length': String(body.length) };
  delete headers['transfer-encoding'];
  // Plain text back, for the spec to read.
  delete headers['accept-encoding'];
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(sent.url, { method: 'POST', headers, localAddress: options.from }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString() }),
      );
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** The next server action the page posts, as sent (headers the browser chose, the body it encoded). */
export async function captureAction(page: Page, act: () => Promise<void>): Promise<Sent> {
  const posted = page.waitForRequest(
    (candidate: Request) => candidate.method() === 'POST' && candidate.headers()['next-action'] !== undefined,
  );
  await act();
  const request = await posted;
  const headers = await request.allHeaders();
  // HTTP/2 pseudo-headers and what node:http sets itself.
  for (const name of Object.keys(headers)) if (name.startsWith(':') || name === 'host' || name === 'connection') delete headers[name];
  return { url: request.url(), headers, body: request.postDataBuffer() ?? Buffer.alloc(0) };
}

/** A multipart form body the browser encoded, with other values for some of its fields. */
export function withFormFields(body: Buffer, fields: Record<string, string>): string {
  return body
    .toString()
    .replace(/(name="(?:_?\d+_)?(\w+)"\r\n\r\n)([^\r]*)/g, (whole, head: string, field: string) =>
      field in fields ? head + fields[field] : whole,
    );
}

/** The same action sent to another server of the same build: its URL, Origin and Referer name that server. */
export function sentTo(sent: Sent, baseURL: string): Sent {
  const retarget = (url: string) => baseURL + url.slice(new URL(url).origin.length);
  const headers = { ...sent.headers };
  if (headers.origin) headers.origin = baseURL;
  if (headers.referer) headers.referer = retarget(headers.referer);
  return { ...sent, url: retarget(sent.url), headers };
}
