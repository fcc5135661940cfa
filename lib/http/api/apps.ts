// Apps and users: the app lists, the users of an app, session search (clearing is in test-namespaces.ts).
import { z } from 'zod';
import { getStore } from '../../services';
import { idSchema } from '../../validation/schemas';
import { searchValueOf } from '../../validation/search-value';
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

const searchQuery = z.object({
  userId: idSchema.optional(),
  q: z.string().optional(),
  stateKey: z.string().optional(),
  stateValue: z.string().transform(searchValueOf).optional(),
  ...pageQuery,
});

/** `?userId=&q=&stateKey=&stateValue=&limit=&offset=`: session search across users. */
export const searchSessions = route<AppParams>(async (request, params) => {
  const appName = appNameOf(params);
  const { q, ...search } = parseQuery(request, searchQuery);
  return json(await (await getStore()).searchSessions({ appName, idContains: q, ...search }));
});
