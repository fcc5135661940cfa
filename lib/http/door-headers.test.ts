// The door reads a request's headers where Node parsed them (headersOf), the way a web Headers reads them.
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { headersOf } from './api-door';

function requestWith(headers: IncomingMessage['headers']): IncomingMessage {
  const request = new IncomingMessage(new Socket());
  request.headers = headers;
  return request;
}

describe('headersOf', () => {
  it('reads each header as a web Headers holding the same lines does', () => {
    const lines: IncomingMessage['headers'] = {
      host: '127.0.0.1:4700',
      'content-length': '12',
      cookie: 'a=1; statehouse_session=abc',
      'set-cookie': ['one=1', 'two=2'],
      'x-empty': '',
    };
    const web = new Headers();
    for (const [name, value] of Object.entries(lines)) {
      for (const item of Array.isArray(value) ? value : [value ?? '']) web.append(name, item);
    }
    const reader = headersOf(requestWith(lines));
    for (const name of ['host', 'Content-Length', 'COOKIE', 'set-cookie', 'x-empty', 'authorization', 'transfer-encoding']) {
      expect(reader.get(name), name).toBe(web.get(name));
      expect(reader.has(name), name).toBe(web.has(name));
    }
  });

  it('reads the request headers where they are, without copying them', () => {
    const request = requestWith({ host: 'localhost' });
    const reader = headersOf(request);
    request.headers['x-statehouse-peer'] = '127.0.0.1';
    expect(reader.get('x-statehouse-peer')).toBe('127.0.0.1');
  });
});
