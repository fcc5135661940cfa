// json() answers exactly as Response.json does, and keeps its text for the
// server's door, which writes it without reading the body back.
import { describe, expect, it } from 'vitest';
import { json, jsonTextOf } from './respond';

describe('json()', () => {
  it('answers as Response.json does, and keeps the text it sent', async () => {
    for (const value of [{ a: 1, nested: [true, null, 'é'] }, null, 'text', 2.5, []]) {
      const ours = json(value, 201, { ETag: '"3"' });
      const theirs = Response.json(value, { status: 201, headers: { ETag: '"3"' } });
      expect([...ours.headers]).toEqual([...theirs.headers]);
      expect(ours.status).toBe(201);
      expect(jsonTextOf(ours)).toBe(await theirs.text());
      expect(await ours.text()).toBe(jsonTextOf(ours));
    }
  });

  it('keeps a content type the caller gave, and refuses what JSON cannot say', () => {
    expect(json({}, 200, { 'content-type': 'application/problem+json' }).headers.get('content-type')).toBe('application/problem+json');
    expect(() => json(undefined)).toThrow(TypeError);
  });

  it('makes no body stream until something reads the body, then reads as a Response does', async () => {
    // Response's own body getter: what the answer holds before any of its readers runs.
    const ownBody = Object.getOwnPropertyDescriptor(Response.prototype, 'body')?.get;
    const answer = json({ a: [1, 'é'] }, 201, { ETag: '"3"' });
    expect(ownBody?.call(answer)).toBeNull();
    expect(answer.bodyUsed).toBe(false);
    expect(await answer.clone().json()).toEqual({ a: [1, 'é'] });
    expect(await new Response(answer.body).text()).toBe('{"a":[1,"é"]}');
    expect(answer.bodyUsed).toBe(true);
    await expect(answer.text()).rejects.toThrow(TypeError);
    for (const read of [(r: Response) => r.arrayBuffer(), (r: Response) => r.blob(), (r: Response) => r.text()]) {
      expect(new TextDecoder().decode(await new Response(await read(json([null]))).arrayBuffer())).toBe('[null]');
    }
    expect(answer).toBeInstanceOf(Response);
  });

  it('refuses a body for a status that has none, at once, as Response does', () => {
    expect(() => json({}, 204)).toThrow(TypeError);
  });

  it('knows no text for answers made otherwise', () => {
    expect(jsonTextOf(Response.json({ a: 1 }))).toBeUndefined();
  });
});
