import type { ApiRequest } from './api-request';
import type { JsonValue } from '../session-service/types';
import type { SpelledJson } from '../session-service/json-spelling';
import { spelledBody } from '../session-service/value-spelling';
import { parseJsonBody } from '../validation/json-body';
import { maxBodyBytes } from './limits';
import { badRequest, HttpError } from './problem';

/**
 * The bodies the server's door (api-door.ts) read whole before handing the
 * request on, by request: read from here, not through a web stream.
 */
const wholeBodies = new WeakMap<ApiRequest, Uint8Array>();

/** Hands `bytes`, the request's whole body, to readBodyBytes as they are. */
export function holdWholeBody(request: ApiRequest, bytes: Uint8Array): void {
  wholeBodies.set(request, bytes);
}

const tooLarge = (limit: number) => new HttpError(413, `Request body too large: the limit is ${limit} bytes (STATEHOUSE_MAX_BODY_BYTES).`);

/**
 * The body's bytes, refusing more than `limit` before holding them all:
 * Content-Length is checked first (cheap rejection) but not trusted, since
 * it can be absent (chunked) or wrong; the stream itself is counted.
 */
export async function readBodyBytes(request: ApiRequest, limit = maxBodyBytes()): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit) throw tooLarge(limit);
  const whole = wholeBodies.get(request);
  if (whole !== undefined) {
    if (whole.byteLength > limit) throw tooLarge(limit);
    return whole;
  }
  if (!request.body) return new Uint8Array(0);

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

export interface ReadJsonOptions {
  /** ADK's create routes take an optional body: an empty one reads as undefined instead of a 400. */
  optional?: boolean;
}

/**
 * The request body as JSON, whatever its Content-Type (ADK clients and curl
 * users often omit it). Size is enforced before parsing; an empty body is a
 * 400 unless `optional`.
 */
export async function readJson(request: ApiRequest, options: ReadJsonOptions = {}): Promise<JsonValue | undefined> {
  return (await readJsonText(request, options)).value;
}

/** `readJson`, with the text the value was parsed from (for what parsing forgets, such as `2.0` vs `2`). */
export async function readJsonText(
  request: ApiRequest,
  options: ReadJsonOptions = {},
): Promise<{ value: JsonValue | undefined; text: string }> {
  const bytes = await readBodyBytes(request);
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw badRequest('body: not valid UTF-8');
  }
  if (text.trim() === '') {
    if (options.optional) return { value: undefined, text };
    throw badRequest('body: required, got an empty body (expected JSON)');
  }
  return { value: parseJsonBody(text), text };
}

/**
 * `readJson`, with the body as written when it holds a number or key that
 * JSON.stringify would spell otherwise (null, the common case, costs one
 * regex test): for storing values as sent (value-spelling.ts).
 */
export async function readSpelledJson(
  request: ApiRequest,
  options: ReadJsonOptions = {},
): Promise<{ value: JsonValue | undefined; spelled: SpelledJson | null }> {
  const { value, text } = await readJsonText(request, options);
  return { value, spelled: spelledBody(text) };
}
