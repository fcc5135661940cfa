import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { HttpError } from './problem';
import { pageQuery, parseQuery } from './query';

const get = (query: string) => new Request(`http://localhost/api/apps/a/sessions${query}`);

describe('parseQuery', () => {
  afterEach(() => vi.restoreAllMocks());

  it('parses a query that gives none of the parameters once per schema, and hands out copies', () => {
    const schema = z.object({ ...pageQuery, format: z.enum(['json', 'csv']).default('json') });
    const parse = vi.spyOn(schema, 'safeParse');
    const first = parseQuery(get(''), schema);
    const second = parseQuery(get(''), schema);
    expect(first).toEqual({ format: 'json' });
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('parses each distinct query once, and hands out copies', () => {
    const schema = z.object(pageQuery);
    const parse = vi.spyOn(schema, 'safeParse');
    parseQuery(get(''), schema);
    expect(parseQuery(get('?limit=3'), schema)).toEqual({ limit: 3 });
    expect(parseQuery(get('?offset=4'), schema)).toEqual({ offset: 4 });
    const again = parseQuery(get('?limit=3'), schema);
    expect(again).toEqual({ limit: 3 });
    again.limit = 9;
    expect(parseQuery(get('?limit=3'), schema)).toEqual({ limit: 3 });
    expect(parse).toHaveBeenCalledTimes(3);
  });

  it('remembers a bounded number of queries and still answers each right past the bound', () => {
    const schema = z.object(pageQuery);
    const parse = vi.spyOn(schema, 'safeParse');
    for (let round = 0; round < 2; round++) {
      for (let limit = 1; limit <= 100; limit++) expect(parseQuery(get(`?limit=${limit}`), schema)).toEqual({ limit });
    }
    expect(parse).toHaveBeenCalledTimes(200);
  });

  it('refuses a bad query every time, and does not remember it', () => {
    const schema = z.object(pageQuery);
    const parse = vi.spyOn(schema, 'safeParse');
    expect(() => parseQuery(get('?limit=x'), schema)).toThrow(/limit: expected an integer/);
    expect(() => parseQuery(get('?limit=x'), schema)).toThrow(/limit: expected an integer/);
    expect(parse).toHaveBeenCalledTimes(2);
  });

  it('refuses an empty query every time when the schema needs a parameter', () => {
    const schema = z.object({ key: z.string({ error: 'is required' }) });
    const parse = vi.spyOn(schema, 'safeParse');
    expect(() => parseQuery(get(''), schema)).toThrow(/key: is required/);
    expect(() => parseQuery(get(''), schema)).toThrow(/key: is required/);
    expect(parse).toHaveBeenCalledTimes(2);
  });

  it('keeps a parameter given twice a 400 after an empty query was remembered', () => {
    const schema = z.object(pageQuery);
    parseQuery(get(''), schema);
    expect(() => parseQuery(get('?limit=1&limit=2'), schema)).toThrow(HttpError);
  });
});
