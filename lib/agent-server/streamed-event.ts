// One message of an agent server's event stream: an ADK event as the
// servers serialize it (camelCase, adk-python by_alias and adk-js alike), or
// the `{"error": "..."}` both send when the run fails after the stream began.
import { z } from 'zod';

const eventSchema = z.looseObject({
  id: z.string().min(1),
  author: z.string(),
  invocationId: z.string().optional(),
  partial: z.boolean().optional(),
  timestamp: z.number().optional(),
  content: z.unknown().optional(),
  actions: z.looseObject({ stateDelta: z.record(z.string(), z.unknown()).optional() }).optional(),
});

export type StreamedEvent = z.infer<typeof eventSchema>;

const errorSchema = z.object({ error: z.unknown() });

export type StreamMessage = { kind: 'event'; event: StreamedEvent } | { kind: 'error'; message: string } | { kind: 'invalid'; why: string };

/** What one `data:` payload is. */
export function streamMessage(data: string): StreamMessage {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return { kind: 'invalid', why: `a message that is not JSON (${clip(data)})` };
  }
  const event = eventSchema.safeParse(json);
  if (event.success) return { kind: 'event', event: event.data };
  const error = errorSchema.safeParse(json);
  if (error.success)
    return { kind: 'error', message: typeof error.data.error === 'string' ? error.data.error : JSON.stringify(error.data.error) };
  const issue = event.error.issues[0];
  return {
    kind: 'invalid',
    why: `a message that is not an ADK event (${issue ? `${issue.path.join('.') || 'event'}: ${issue.message}` : 'unknown shape'})`,
  };
}

/** A server's text, cut to what a message can show. */
export function clip(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
