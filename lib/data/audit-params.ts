// The audit log page's query string (and its export's): filters by actor,
// app, user, key and time, and the page. Typed and bookmarked by people, so
// a value that makes no sense is left out rather than failing the page.
import { z } from 'zod';
import type { AuditLogQuery } from '../session-service/audit-log';
import { MAX_KEY_LENGTH } from '../validation/limits';
import { idSchema, nameSchema } from '../validation/schemas';
import { pagingOf, type Paging, type SearchParams } from './list-params';

export interface AuditFilters {
  actor?: string;
  app?: string;
  user?: string;
  key?: string;
  /** `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM` as typed, read as UTC. */
  since?: string;
  until?: string;
}

export interface AuditPageQuery extends Paging {
  filters: AuditFilters;
}

function single(params: SearchParams, name: string): string | undefined {
  const raw = params[name];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value ? value : undefined;
}

const keySchema = z.string().max(MAX_KEY_LENGTH);
const timeSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?$/);

function valid<T extends z.ZodType<string>>(schema: T, value: string | undefined): string | undefined {
  return value === undefined ? undefined : schema.safeParse(value).success ? value : undefined;
}

export function auditQueryOf(params: SearchParams): AuditPageQuery {
  return {
    ...pagingOf(params),
    filters: {
      actor: valid(nameSchema, single(params, 'actor')),
      app: valid(idSchema, single(params, 'app')),
      user: valid(idSchema, single(params, 'user')),
      key: valid(keySchema, single(params, 'key')),
      since: valid(timeSchema, single(params, 'since')),
      until: valid(timeSchema, single(params, 'until')),
    },
  };
}

/** Seconds of a typed UTC date or time; `end` makes a bare date mean the end of that day. */
export function secondsOf(text: string | undefined, end = false): number | undefined {
  if (text === undefined) return undefined;
  const bare = !text.includes('T');
  const millis = Date.parse(`${text}${bare ? 'T00:00:00' : text.length === 16 ? ':00' : ''}Z`);
  if (Number.isNaN(millis)) return undefined;
  return millis / 1000 + (bare && end ? 86_400 - 0.001 : end ? 59.999 : 0);
}

/** The store query for the filters (the served store's id given). */
export function auditLogQuery(storeId: string, filters: AuditFilters): AuditLogQuery {
  return {
    storeId,
    actor: filters.actor,
    appName: filters.app,
    userId: filters.user,
    key: filters.key,
    since: secondsOf(filters.since),
    until: secondsOf(filters.until, true),
  };
}

/** The filters as URL parameters, those set. */
export function auditParams(filters: AuditFilters): Record<string, string> {
  return Object.fromEntries(Object.entries(filters).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
