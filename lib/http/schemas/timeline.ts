import { z } from 'zod';
import { MAX_FIND_LENGTH } from '../../session-service/search';
import { MAX_KEY_LENGTH } from '../../validation/limits';
import { idSchema } from '../../validation/schemas';
import { pageQuery, secondsParam, storedIntegerParam } from '../query';

/** The session timeline's filters, as query parameters (see lib/data/session.ts). */
export const timelineFilterQuery = {
  author: z.string().max(MAX_KEY_LENGTH, `must be at most ${MAX_KEY_LENGTH} characters`).optional(),
  invocationId: idSchema.optional(),
  /** A prefixed state key (`app:x`, `user:y`, `z`): events whose delta touched it. */
  key: z
    .string()
    .max(MAX_KEY_LENGTH + 5, `must be at most ${MAX_KEY_LENGTH + 5} characters`)
    .optional(),
  /** Text in the author, content parts, tool names or error. */
  text: z.string().max(MAX_FIND_LENGTH, `must be at most ${MAX_FIND_LENGTH} characters`).optional(),
  /** Events calling or answering this tool. */
  tool: z.string().max(MAX_KEY_LENGTH, `must be at most ${MAX_KEY_LENGTH} characters`).optional(),
  /** `1`: only events with an error code or message. */
  errors: z
    .enum(['1', 'true'])
    .transform(() => true)
    .optional(),
  /** Events at or after, at or before these times (seconds since the epoch). */
  from: secondsParam().optional(),
  to: secondsParam().optional(),
};

export const timelineQuery = z.object({ ...timelineFilterQuery, after: storedIntegerParam(0).optional(), ...pageQuery });

export const positionQuery = z.object({
  ...timelineFilterQuery,
  seq: z.string({ error: 'is required' }).pipe(storedIntegerParam(1)),
});

/** A sequence number in a path segment. */
export const seqParam = storedIntegerParam(1);
