// What a message to the agent may be, the same for the console's box and the API.
import { z } from 'zod';

/** A message is typed by a person: longer than this is a paste gone wrong. */
export const MAX_MESSAGE_CHARS = 20_000;

export const messageSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'type a message')
  .max(MAX_MESSAGE_CHARS, `must be at most ${MAX_MESSAGE_CHARS.toLocaleString('en')} characters`);

/** Keys shared beyond one session: a branch must not change them (they are the original's too). */
const SHARED_PREFIXES = ['app:', 'user:'];

export const branchStateSchema = z
  .record(z.string().min(1, 'a key cannot be empty'), z.json())
  .refine((delta) => Object.keys(delta).every((key) => !SHARED_PREFIXES.some((prefix) => key.startsWith(prefix))), {
    message: 'only session keys: app: and user: keys are shared with the original session',
  });

export const sendInput = z.object({ text: messageSchema, stateDelta: branchStateSchema.optional() });

/** The state changes typed for a branch: blank is none. */
export function parseBranchState(text: string): { ok: true; value: Record<string, unknown> | undefined } | { ok: false; message: string } {
  if (!text.trim()) return { ok: true, value: undefined };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, message: 'Not JSON: write an object such as {"topic": "hiking"}.' };
  }
  const parsed = branchStateSchema.safeParse(json);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, message: parsed.error.issues[0]?.message ?? 'Not a JSON object.' };
}
