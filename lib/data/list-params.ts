// The query string of the list pages (/apps, an app, a user): page, page
// size, sort and search text, parsed leniently. These URLs are typed, pasted
// and bookmarked by people, so a value that makes no sense falls back to its
// default instead of failing the page.
import { z } from 'zod';
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

export const SESSION_SORTS = ['recent', 'oldest'] as const;
export type SessionSort = (typeof SESSION_SORTS)[number];

/** The session search of an app or user page: `q` (id contains), `key`, `value`, `sort`, `page`, `size`. */
export interface SessionListQuery extends Paging {
  q?: string;
  key?: string;
  /** As typed; `stateValue` is its JSON reading. */
  value?: string;
  stateValue?: JsonValue;
  sort: SessionSort;
}

export function sessionListQueryOf(params: SearchParams): SessionListQuery {
  const value = textOf(params, 'value', MAX_SEARCH_VALUE_LENGTH);
  return {
    ...pagingOf(params),
    q: textOf(params, 'q', MAX_ID_LENGTH),
    key: textOf(params, 'key', MAX_KEY_LENGTH),
    value,
    stateValue: value === undefined ? undefined : searchValueOf(value),
    sort: choiceOf(params, 'sort', SESSION_SORTS),
  };
}

export const USER_SORTS = ['recent', 'sessions', 'id'] as const;
export type UserSort = (typeof USER_SORTS)[number];

export interface UserListQuery extends Paging {
  q?: string;
  sort: UserSort;
}

export function userListQueryOf(params: SearchParams): UserListQuery {
  return { ...pagingOf(params), q: textOf(params, 'q', MAX_ID_LENGTH), sort: choiceOf(params, 'sort', USER_SORTS) };
}

export const APP_SORTS = ['recent', 'name', 'sessions'] as const;
export type AppSort = (typeof APP_SORTS)[number];

export interface AppListQuery extends Paging {
  q?: string;
  sort: AppSort;
}

export function appListQueryOf(params: SearchParams): AppListQuery {
  return { ...pagingOf(params), q: textOf(params, 'q', MAX_ID_LENGTH), sort: choiceOf(params, 'sort', APP_SORTS) };
}
