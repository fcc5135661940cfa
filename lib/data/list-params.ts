// The query string of the list pages (/apps, an app, a user): page, page
// size, sort and search text, parsed leniently. These URLs are typed, pasted
// and bookmarked by people, so a value that makes no sense falls back to its
// default instead of failing the page.
import { z } from 'zod';
import { STATE_OPERATORS, type StateFilter, type StateOperator } from '../session-service/state-filter';
import type { JsonValue } from '../session-service/types';
import { MAX_ID_LENGTH, MAX_KEY_LENGTH } from '../validation/limits';
import { searchValueOf } from '../validation/search-value';

/** What Next passes a page as `searchParams`. */
export type SearchParams = Record<string, string | string[] | undefined>;

export const PAGE_SIZES = [10, 25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 25;

/** Longest state value a search accepts; a value to match is typed, not pasted from a 1 MiB blob. */
export const MAX_SEARCH_VALUE_LENGTH = 10_000;

/** A parameter given twice counts as its first value; blank counts as absent. */
function single(params: SearchParams, name: string): string | undefined {
  const raw = params[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value === undefined || value.trim() === '' ? undefined : value;
}

const pageSchema = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const sizeSchema = z.coerce.number().pipe(z.literal(PAGE_SIZES));

export interface Paging {
  /** 1-based. */
  page: number;
  size: PageSize;
}

export function pagingOf(params: SearchParams): Paging {
  return {
    page: pageSchema.catch(1).parse(single(params, 'page')),
    size: sizeSchema.catch(DEFAULT_PAGE_SIZE).parse(single(params, 'size')),
  };
}

/** The service's limit and offset for a page. */
export function limitOffset({ page, size }: Paging): { limit: number; offset: number } {
  return { limit: size, offset: (page - 1) * size };
}

/** Pages needed for `total` items (at least one, so an empty list is "page 1 of 1"). */
export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/** One of `choices`, the first being the default. */
export function choiceOf<T extends string>(params: SearchParams, name: string, choices: readonly [T, ...T[]]): T {
  const value = single(params, name);
  return (choices as readonly string[]).includes(value ?? '') ? (value as T) : choices[0];
}

/** Free text, trimmed, cut to `maxLength` (a longer paste still searches for its start). */
export function textOf(params: SearchParams, name: string, maxLength: number): string | undefined {
  const value = single(params, name)?.trim();
  return value === undefined ? undefined : value.slice(0, maxLength);
}

export const SESSION_SORTS = ['recent', 'oldest', 'events'] as const;
export type SessionSort = (typeof SESSION_SORTS)[number];

/** State filters a list URL holds: `key`/`op`/`value`, then `key2`/`op2`/`value2`, `key3`/`op3`/`value3`. */
export const FILTER_SLOTS = 3;

/** The query parameters of filter slot `index` (0-based). */
export function filterParamNames(index: number): { key: string; op: string; value: string } {
  const n = index === 0 ? '' : String(index + 1);
  return { key: `key${n}`, op: `op${n}`, value: `value${n}` };
}

/** A state filter as the URL spells it (the value as typed). */
export interface FilterInput {
  key: string;
  op: StateOperator;
  value?: string;
}

/**
 * The operator a filter without one gets: a key alone exists; a value that
 * reads as a string is looked for inside (`topic=refu` finds "refund"),
 * any other JSON (a number, true, an object) is compared whole.
 */
function defaultOperator(value: string | undefined): StateOperator {
  if (value === undefined) return 'exists';
  return typeof searchValueOf(value) === 'string' ? 'contains' : '=';
}

/** The filter the store applies: contains looks for the text as typed, the others read it as JSON (or text). */
export function stateFilterOf(input: FilterInput): StateFilter {
  if (input.op === 'exists' || input.value === undefined) return { key: input.key, op: 'exists' };
  if (input.op === 'contains') return { key: input.key, op: 'contains', value: input.value };
  const read = searchValueOf(input.value);
  if ((input.op === '<' || input.op === '>') && typeof read !== 'number') return { key: input.key, op: input.op, value: input.value };
  return { key: input.key, op: input.op, value: read };
}

/** The session search of an app or user page: `q` (id contains), state filters, `sort`, `page`, `size`. */
export interface SessionListQuery extends Paging {
  q?: string;
  filters: FilterInput[];
  /** A value with no key (`?value=`): any key of any tier holding it, as typed; `stateValue` is its JSON reading. */
  value?: string;
  stateValue?: JsonValue;
  sort: SessionSort;
  /** `errors=1`: only sessions with an error event. */
  errors: boolean;
}

function filtersOf(params: SearchParams): { filters: FilterInput[]; loneValue?: string } {
  const filters: FilterInput[] = [];
  let loneValue: string | undefined;
  for (let index = 0; index < FILTER_SLOTS; index += 1) {
    const names = filterParamNames(index);
    const key = textOf(params, names.key, MAX_KEY_LENGTH);
    const value = textOf(params, names.value, MAX_SEARCH_VALUE_LENGTH);
    const given = single(params, names.op);
    const op = given !== undefined && (STATE_OPERATORS as readonly string[]).includes(given) ? (given as StateOperator) : undefined;
    if (key === undefined) {
      if (index === 0) loneValue = value;
      continue;
    }
    const chosen = op === undefined || (op !== 'exists' && value === undefined) ? defaultOperator(value) : op;
    filters.push(chosen === 'exists' ? { key, op: chosen } : { key, op: chosen, value });
  }
  return { filters, loneValue };
}

export function sessionListQueryOf(params: SearchParams): SessionListQuery {
  const { filters, loneValue } = filtersOf(params);
  return {
    ...pagingOf(params),
    q: textOf(params, 'q', MAX_ID_LENGTH),
    filters,
    value: loneValue,
    stateValue: loneValue === undefined ? undefined : searchValueOf(loneValue),
    sort: choiceOf(params, 'sort', SESSION_SORTS),
    errors: single(params, 'errors') === '1',
  };
}

/** A list of names (users, apps): `q` (name contains), `sort`, `page`, `size`. */
export interface NameListQuery<Sort extends string> extends Paging {
  q?: string;
  sort: Sort;
}

function nameListQueryOf<Sort extends string>(params: SearchParams, sorts: readonly [Sort, ...Sort[]]): NameListQuery<Sort> {
  return { ...pagingOf(params), q: textOf(params, 'q', MAX_ID_LENGTH), sort: choiceOf(params, 'sort', sorts) };
}

export const USER_SORTS = ['recent', 'sessions', 'id'] as const;
export type UserSort = (typeof USER_SORTS)[number];
export type UserListQuery = NameListQuery<UserSort>;
export const userListQueryOf = (params: SearchParams): UserListQuery => nameListQueryOf(params, USER_SORTS);

export const APP_SORTS = ['recent', 'name', 'sessions'] as const;
export type AppSort = (typeof APP_SORTS)[number];
export type AppListQuery = NameListQuery<AppSort>;
export const appListQueryOf = (params: SearchParams): AppListQuery => nameListQueryOf(params, APP_SORTS);

/** The parameters of a session list a view keeps: the id search, the state filters, errors only, sort and page size. */
export const VIEW_PARAMS: readonly string[] = [
  'q',
  ...Array.from({ length: FILTER_SLOTS }, (_, index) => Object.values(filterParamNames(index))).flat(),
  'value',
  'errors',
  'sort',
  'size',
].filter((name, index, all) => all.indexOf(name) === index);

/** The list's query as a view keeps it: its own parameters only, blank ones left out, in a fixed order. */
export function viewQueryOf(query: string): string {
  const given = new URLSearchParams(query.startsWith('?') ? query.slice(1) : query);
  const kept = new URLSearchParams();
  for (const name of VIEW_PARAMS) {
    const value = given.get(name);
    if (value !== null && value.trim() !== '') kept.set(name, value);
  }
  return kept.toString();
}
