/**
 * The text of each JSON answer made here, by its Response: the server's
 * door (api-door.ts) writes it to the socket as it is, instead of reading
 * the body back through a web stream.
 */
const jsonTexts = new WeakMap<Response, string>();

const JSON_TYPE = { 'content-type': 'application/json' } as const;

/**
 * `headers` with a JSON Content-Type unless they name one. A plain record
 * stays one, for Response to copy once (a Headers built here would be
 * copied again).
 */
function withJsonType(headers: HeadersInit | undefined): HeadersInit {
  if (headers === undefined) return JSON_TYPE;
  if (!(headers instanceof Headers) && !Array.isArray(headers)) {
    return Object.keys(headers).some((name) => name.toLowerCase() === 'content-type') ? headers : { ...JSON_TYPE, ...headers };
  }
  const head = new Headers(headers);
  if (!head.has('content-type')) head.set('content-type', JSON_TYPE['content-type']);
  return head;
}

/** JSON responses, as Response.json makes them: JSON.stringify, which writes own `__proto__` keys like any other. */
export function json(data: unknown, status = 200, headers?: HeadersInit): Response {
  const text: unknown = JSON.stringify(data);
  if (typeof text !== 'string') throw new TypeError('Value is not JSON serializable');
  const response = new Response(text, { status, headers: withJsonType(headers) });
  jsonTexts.set(response, text);
  return response;
}

/** Sessions with more events than this are answered as they are serialized (jsonChunksResponse). */
export const STREAMED_EVENTS_OVER = 1000;

const streamedJson = new WeakSet<Response>();

/** A JSON answer written chunk by chunk as `chunks` makes its text (a long session's events), never held whole. */
export function jsonChunksResponse(chunks: Iterator<string>, status = 200, headers?: HeadersInit): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
  const response = new Response(body, { status, headers: withJsonType(headers) });
  streamedJson.add(response);
  return response;
}

/** Whether jsonChunksResponse made this answer (to be passed on as it comes, not read whole). */
export function isChunkedJson(response: Response): boolean {
  return streamedJson.has(response);
}

/** The body of a response json() made, unread; undefined for any other. */
export function jsonTextOf(response: Response): string | undefined {
  return jsonTexts.get(response);
}

/** The error shape of ADK's API server (FastAPI's HTTPException): `{"detail": "..."}`. */
export function detailResponse(status: number, detail: string, headers?: HeadersInit): Response {
  return json({ detail }, status, headers);
}
