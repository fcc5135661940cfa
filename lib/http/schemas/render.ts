import { z } from 'zod';
import type { SessionRef } from '../../session-service/store';
import type { JsonValue, StateRecord } from '../../session-service/types';
import type { TemplateDialect } from '../../session-service/template';
import { MAX_TEMPLATE_LENGTH } from '../../validation/limits';
import { idSchema } from '../../validation/schemas';
import { convertAdkFields, RENDER_SHAPE } from '../../validation/adk-case';
import { parseWith } from '../../validation/issues';
import { badRequest } from '../problem';
import { stateSchema } from '../../validation/json-schemas';

const renderSchema = z.object({
  template: z.string().max(MAX_TEMPLATE_LENGTH, `must be at most ${MAX_TEMPLATE_LENGTH} characters`),
  dialect: z.enum(['python', 'typescript'], { error: 'must be "python" or "typescript"' }).default('python'),
  state: stateSchema.optional(),
  session: z
    .object({
      appName: idSchema,
      userId: idSchema,
      sessionId: idSchema,
      asOf: z.number().int('must be an integer').nonnegative().optional(),
    })
    .optional(),
});

export type RenderSource = { state: StateRecord } | { session: SessionRef; asOf?: number };

export interface RenderBody {
  template: string;
  dialect: TemplateDialect;
  source: RenderSource;
}

/** `{template, dialect?, state? | session?: {appName, userId, sessionId, asOf?}}`: exactly one of state and session. */
export function parseRender(body: JsonValue | undefined): RenderBody {
  const { template, dialect, state, session } = parseWith(renderSchema, convertAdkFields(body ?? null, RENDER_SHAPE));
  if (state !== undefined && session === undefined) return { template, dialect, source: { state } };
  if (session !== undefined && state === undefined) {
    const { asOf, ...ref } = session;
    return { template, dialect, source: asOf === undefined ? { session: ref } : { session: ref, asOf } };
  }
  throw badRequest('state/session: give exactly one, the state to render against or the session to read it from');
}
