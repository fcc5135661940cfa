// Apps and users: the app lists, the users of an app, session search (clearing is in test-namespaces.ts).
import { z } from 'zod';
import { getStore } from '../../services';
import { idSchema } from '../../validation/schemas';
import { searchValueOf } from '../../validation/search-value';
import { MAX_STATE_FILTERS, STATE_OPERATORS, type StateFilter } from '../../session-service/state-filter';
import type { JsonValue } from '../../session-service/types';
import { badRequest } from '../problem';
import { plainRoute, route } from '../handler';
import { appNameOf, type AppParams } from '../params';
import { pageQuery, parseQuery } from '../query';
import { json } from '../respond';

/** ADK's app list: names of apps with sessions or state, sorted. */
export const listAppNames = plainRoute(async () => {
  const apps = await (await getStore()).listApps();
  return json(apps.map((app) => app.appName));
});

/** The dashboard's app summaries. */
export const listApps = plainRoute(async () => json({ items: await (await getStore()).listApps() }));

const usersQuery = z.object({ q: z.string().optional(), ...pageQuery });

/** `?q=&limit=&offset=`: users of an app (with sessions or user state), most recent first. */
export const listUsers = route<AppParams>(async (request, params) => {
  const appName = appNameOf(params);
  const { q, limit, offset } = parseQuery(request, usersQuery);
  return json(await (await getStore()).listUsers(appName, { idContains: q, limit, offset }));
});

const filterSchema = z.object({
  key: z.string().min(1),
  op: z.enum(STATE_OPERATORS),
  // Parsed from JSON text, so a JSON value.
  value: z.custom<JsonValue>((value) => value !== undefined).optional(),
});

/** A query parameter holding JSON text, parsed, then checked by `schema`. */
const filtersParam = z
  .string()
  .transform((text, ctx): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'expected JSON: an array of {key, op, value}' });
      return z.NEVER;
    }
  })
  .pipe(z.array(filterSchema).max(MAX_STATE_FILTERS));

const searchQuery = z.object({
  userId: idSchema.optional(),
  q: z.string().optional(),
  stateKey: z.string().optional(),
  stateValue: z.string().transform(searchValueOf).optional(),
  /** With stateKey: the operator between the key and stateValue (stateValue read as JSON, or as text). */
  op: z.enum(STATE_OPERATORS).optional(),
  /** More state filters, as a JSON array of {key, op, value}. */
  filters: filtersParam.optional(),
  ...pageQuery,
});

/**
 * `?userId=&q=&stateKey=&op=&stateValue=&filters=&limit=&offset=`: session search across users.
 * Without `op`, stateKey and stateValue keep their meaning (has the key; holds exactly the value).
 */
export const searchSessions = route<AppParams>(async (request, params) => {
  const appName = appNameOf(params);
  const { q, op, filters = [], stateKey, stateValue, ...search } = parseQuery(request, searchQuery);
  if (op !== undefined && stateKey === undefined) throw badRequest('op: needs stateKey');
  const keyed: StateFilter[] =
    op === undefined || stateKey === undefined
      ? []
      : [op === 'exists' || stateValue === undefined ? { key: stateKey, op: 'exists' } : { key: stateKey, op, value: stateValue }];
  const plain = op === undefined ? { stateKey, stateValue } : {};
  return json(await (await getStore()).searchSessions({ appName, idContains: q, ...plain, filters: [...keyed, ...filters], ...search }));
});
