import { afterEach, describe, expect, it } from 'vitest';
import { holdWholeBody, readBodyBytes, readJson } from './body';
import { DEFAULT_MAX_BODY_BYTES } from './limits';
import { HttpError } from './problem';

function post(body: BodyInit | null, headers?: Record<string, string>): Request {
  const init: RequestInit & { duplex?: 'half' } = { method: 'POST', body, headers };
  if (body instanceof ReadableStream) init.duplex = 'half';
  return new Request('http://localhost/api/x', init);
}

/** A chunked body with no Content-Length, as a streaming client sends it. */
function stream(chunks: number, chunkSize: number, onPull?: () => void): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      onPull?.();
      if (sent === chunks) return controller.close();
      sent += 1;
      controller.enqueue(new Uint8Array(chunkSize).fill(0x20));
    },
  });
}

async function failure(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected an HttpError');
}

afterEach(() => {
  delete process.env.STATEHOUSE_MAX_BODY_BYTES;
});

describe('readBodyBytes', () => {
  it('counts a streamed body and stops reading once it is over the limit', async () => {
    let pulls = 0;
    const error = await failure(readBodyBytes(post(stream(1000, 64 * 1024, () => (pulls += 1))), 1024 * 1024));
    expect(error.status).toBe(413);
    expect(pulls).toBeLessThan(40);
  });

  it('refuses a declared Content-Length over the limit without reading', async () => {
    let pulls = 0;
    const request = post(
      stream(1, 10, () => (pulls += 1)),
      { 'content-length': String(DEFAULT_MAX_BODY_BYTES + 1) },
    );
    const error = await failure(readBodyBytes(request));
    expect(error.status).toBe(413);
    expect(pulls).toBeLessThanOrEqual(1);
  });

  it('does not trust a small Content-Length', async () => {
    const body = new Uint8Array(200).fill(0x20);
    const error = await failure(readBodyBytes(post(body, { 'content-length': '10' }), 100));
    expect(error.status).toBe(413);
  });

  it('accepts a body of exactly the limit', async () => {
    expect((await readBodyBytes(post(new Uint8Array(100)), 100)).byteLength).toBe(100);
  });
});

describe('holdWholeBody', () => {
  it('hands its bytes to readBodyBytes as they are, without reading the stream', async () => {
    const bytes = new TextEncoder().encode('{"a":1}');
    const request = new Request('http://localhost/api/x', { method: 'POST', body: bytes });
    holdWholeBody(request, bytes);
    expect(await readBodyBytes(request)).toBe(bytes);
    expect(request.bodyUsed).toBe(false);
    expect(await readJson(request)).toEqual({ a: 1 });
  });

  it('refuses whole bytes over the limit, whatever Content-Length says', async () => {
    const request = new Request('http://localhost/api/x', { method: 'POST', headers: { 'content-length': '2' } });
    holdWholeBody(request, new Uint8Array(11));
    expect((await failure(readBodyBytes(request, 10))).status).toBe(413);
  });
});

describe('readJson', () => {
  it('follows STATEHOUSE_MAX_BODY_BYTES', async () => {
    process.env.STATEHOUSE_MAX_BODY_BYTES = '16';
    const error = await failure(readJson(post('{"a": "0123456789abcdef"}')));
    expect(error).toMatchObject({ status: 413, detail: expect.stringContaining('16 bytes') });
    expect(await readJson(post('{"a": 1}'))).toEqual({ a: 1 });
  });

  it('ignores a nonsensical STATEHOUSE_MAX_BODY_BYTES', async () => {
    process.env.STATEHOUSE_MAX_BODY_BYTES = 'lots';
    expect(await readJson(post('{"a": 1}'))).toEqual({ a: 1 });
  });

  it('treats an empty body as missing, or as nothing when optional', async () => {
    expect(await failure(readJson(post(null)))).toMatchObject({ status: 400, detail: 'body: required, got an empty body (expected JSON)' });
    expect(await readJson(post('  \n'), { optional: true })).toBeUndefined();
  });

  it('refuses bytes that are not UTF-8 and tolerates a byte order mark', async () => {
    expect(await failure(readJson(post(new Uint8Array([0x7b, 0xff, 0x7d]))))).toMatchObject({ detail: 'body: not valid UTF-8' });
    expect(await readJson(post(new Uint8Array([0xef, 0xbb, 0xbf, 0x5b, 0x5d])))).toEqual([]);
  });

  it('keeps __proto__ as an ordinary key', async () => {
    const value = (await readJson(post('{"__proto__": {"polluted": true}}'))) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
