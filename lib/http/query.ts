import type { ApiRequest } from './api-request';
import { z } from 'zod';
import { parseWith } from '../validation/issues';
import { MAX_STORED_INTEGER } from '../validation/limits';
import { MAX_PAGE_LIMIT } from './limits';
import { badRequest } from './problem';
import { requestUrl } from './request-url';

const camelToSnake = (name: string) => name.replace(/[A-Z]/g, (char) => `_${char.toLowerCase()}`);

/**
 * The declared query parameters of a request, by camelCase name (the
 * snake_case spelling is accepted too). Empty values count as absent, a
 * parameter given twice is a 400, undeclared ones are ignored (as FastAPI does).
 */
export function queryValues(request: ApiRequest, names: readonly string[]): Record<string, string | undefined> {
  const params = requestUrl(request).searchParams;
  const values: Record<string, string | undefined> = {};
  for (const name of names) {
    const snake = camelToSnake(name);
    const given = [...params.getAll(name), ...(snake === name ? [] : params.getAll(snake))];
    if (given.length > 1) throw badRequest(`${name}: given more than once`);
    const value = given[0];
    values[name] = value === undefined || value === '' ? undefined : value;
  }
  return values;
}

/**
 * What each schema made of the queries it saw lately, by query string: an
 * agent sends the same few (`?numRecentEvents=20`) again and again, and
 * validating one was 3% of a session read's CPU through /api. Only flat
 * answers are kept, each caller gets its own copy, and a refused query is
 * parsed (and refused) every time.
 */
const parsedQueries = new WeakMap<z.ZodObject, Map<string, Readonly<Record<string, unknown>>>>();

/** Distinct query strings remembered per schema (past it, the memory starts again), each at most this long. */
const REMEMBERED_QUERIES = 64;
const REMEMBERED_QUERY_LENGTH = 256;

function isFlat(value: object): boolean {
  return Object.values(value).every((item) => item === null || typeof item !== 'object');
}

/** Parses the declared parameters with a schema whose keys are their names. */
export function parseQuery<S extends z.ZodObject>(request: ApiRequest, schema: S): z.output<S> {
  const { search } = requestUrl(request);
  let remembered = parsedQueries.get(schema);
  const known = remembered?.get(search);
  if (known) return { ...known } as z.output<S>;
  const values: z.output<S> = parseWith(schema, queryValues(request, Object.keys(schema.shape)));
  if (search.length <= REMEMBERED_QUERY_LENGTH && isFlat(values)) {
    if (remembered === undefined) {
      remembered = new Map<string, Readonly<Record<string, unknown>>>();
      parsedQueries.set(schema, remembered);
    }
    if (remembered.size >= REMEMBERED_QUERIES) remembered.clear();
    remembered.set(search, { ...values });
  }
  return values;
}

/** An integer query parameter within bounds. */
export function integerParam(min: number, max = Number.MAX_SAFE_INTEGER) {
  const range = max === Number.MAX_SAFE_INTEGER ? `an integer ≥ ${min}` : `an integer from ${min} to ${max}`;
  return z.string().transform((text, ctx) => {
    const value = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
    if (Number.isSafeInteger(value) && value >= min && value <= max) return value;
    ctx.addIssue({ code: 'custom', message: `expected ${range}, got ${JSON.stringify(text)}` });
    return z.NEVER;
  });
}

/** An integer query parameter compared with a stored one (a sequence number): at most MAX_STORED_INTEGER. */
export function storedIntegerParam(min: number) {
  return integerParam(min, MAX_STORED_INTEGER);
}

/** A non-negative number of seconds (float seconds since the epoch, as ADK timestamps are). */
export function secondsParam() {
  return z.string().transform((text, ctx) => {
    const value = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
    if (Number.isFinite(value)) return value;
    ctx.addIssue({ code: 'custom', message: `expected seconds since the epoch (e.g. 1750000000.5), got ${JSON.stringify(text)}` });
    return z.NEVER;
  });
}

export const pageQuery = {
  limit: integerParam(1, MAX_PAGE_LIMIT).optional(),
  offset: integerParam(0).optional(),
};
