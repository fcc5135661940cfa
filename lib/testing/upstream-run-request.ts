// The run request schemas of the two ADK API servers, written down from their
// source so a test can hold the body Statehouse sends against them
// (app/api/agent-send.test.ts). docs/agent-servers.md has the same citations.
//
// adk-python — google/adk-python src/google/adk/cli/adk_web_server.py at
// 0022bd746608763c777186db6b21634010db2bf1, `class RunAgentRequest(common.BaseModel)`:
//   app_name: str (field_validator: ^[a-zA-Z0-9_]+$), user_id: str, session_id: str,
//   new_message: Optional[types.Content] = None, streaming: bool = False,
//   state_delta: Optional[dict[str, Any]] = None, function_call_event_id: Optional[str] = None,
//   invocation_id: Optional[str] = None
// common.BaseModel (src/google/adk/cli/utils/common.py): alias_generator=to_camel,
// populate_by_name=True, so each field is read under its name or its camelCase alias;
// pydantic's default extra='ignore'. types.Content is google-genai's
// (googleapis/python-genai google/genai/_common.py at 07b390247fde34092e28b241bc2af091ffe540f5:
// extra='forbid', camelCase aliases): role: Optional[str], parts: Optional[list[Part]].
//
// adk-js — google/adk-js dev/src/server/adk_api_server.ts at
// b2eafdbc9972f955e63c7e5b2232eeaaaabb4151 (npm @google/adk-devtools 2.0.0): `app.post('/run_sse')`
// destructures `{appName, userId, sessionId, newMessage, streaming, stateDelta}` from the JSON body:
// camelCase only; a snake_case body reaches the runner as undefined.
import { z } from 'zod';

const part = z.object({ text: z.string().optional() }).strict();
const content = z.object({ role: z.string().nullable().optional(), parts: z.array(part).nullable().optional() }).strict();

const PYTHON_FIELDS = {
  app_name: z.string().regex(/^[a-zA-Z0-9_]+$/, 'Must contain only letters, digits, and underscores.'),
  user_id: z.string(),
  session_id: z.string(),
  new_message: content.nullable().optional(),
  streaming: z.boolean().optional(),
  state_delta: z.record(z.string(), z.unknown()).nullable().optional(),
  function_call_event_id: z.string().nullable().optional(),
  invocation_id: z.string().nullable().optional(),
} as const;

const camel = (name: string) => name.replace(/_([a-z])/g, (_whole, letter: string) => letter.toUpperCase());

export type Verdict = { ok: true } | { ok: false; problems: string[] };

/** Whether adk-python's RunAgentRequest validates this body (each field by its name or its alias; unknown fields ignored). */
export function acceptedByAdkPython(body: unknown): Verdict {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, problems: ['not an object'] };
  const record = body as Record<string, unknown>;
  const problems: string[] = [];
  for (const [name, schema] of Object.entries(PYTHON_FIELDS)) {
    const alias = camel(name);
    const value = alias in record ? record[alias] : record[name];
    const result = (schema as z.ZodType).safeParse(value);
    if (!result.success) problems.push(`${name}: ${result.error.issues[0]?.message ?? 'invalid'}`);
  }
  return problems.length === 0 ? { ok: true } : { ok: false, problems };
}

const jsBody = z.object({
  appName: z.string().min(1),
  userId: z.string().min(1),
  sessionId: z.string().min(1),
  newMessage: z.object({ role: z.string(), parts: z.array(z.object({ text: z.string() })).min(1) }),
  streaming: z.boolean().optional(),
});

/** Whether adk-js's api_server finds every field it reads under the name it reads it by. */
export function acceptedByAdkJs(body: unknown): Verdict {
  const result = jsBody.safeParse(body);
  return result.success
    ? { ok: true }
    : { ok: false, problems: result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) };
}
