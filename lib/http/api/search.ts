// The header search over every app, user, session id, title, label and state value.
import { z } from 'zod';
import { findAnything } from '../../data/find';
import { getStore } from '../../services';
import { DEFAULT_FIND_LIMIT, MAX_FIND_LENGTH, MAX_FIND_LIMIT } from '../../session-service/search';
import { idSchema } from '../../validation/schemas';
import { plainRoute } from '../handler';
import { integerParam, parseQuery } from '../query';
import { json } from '../respond';

const findQuery = z.object({
  q: z.string().max(MAX_FIND_LENGTH),
  app: idSchema.optional(),
  limit: integerParam(1, MAX_FIND_LIMIT).optional(),
});

/** `?q=&app=&limit=`: `{hits, coverage?}`; coverage says how much of a store a bounded search looked through. */
export const find = plainRoute(async (request) => {
  const { q, app, limit } = parseQuery(request, findQuery);
  return json(await findAnything(await getStore(), { text: q, appName: app, limit: limit ?? DEFAULT_FIND_LIMIT }));
});
