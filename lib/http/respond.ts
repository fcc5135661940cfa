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

/** Statuses whose answers have no body (the Fetch standard's null body statuses). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * A JSON answer whose body stream is made when something reads it. Node's
 * Response makes a web stream for every body at once, about 15 µs, a tenth
 * of a small /api read's own CPU; the server's door writes the text and
 * never reads it (api-door.ts), and Next reads it through these same methods.
 */
class JsonResponse extends Response {
  readonly #text: string;
  #withBody: Response | undefined;

  constructor(text: string, init: ResponseInit) {
    super(null, init);
    this.#text = text;
  }

  /** The same answer with its body, made once, when first read. */
  #read(): Response {
    this.#withBody ??= new Response(this.#text, { status: this.status, statusText: this.statusText, headers: this.headers });
    return this.#withBody;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#read().body;
  }

  override get bodyUsed(): boolean {
    return this.#withBody?.bodyUsed ?? false;
  }

  override text(): Promise<string> {
    return this.#read().text();
  }

  override json(): Promise<unknown> {
    return this.#read().json();
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#read().arrayBuffer();
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#read().bytes();
  }

  override blob(): Promise<Blob> {
    return this.#read().blob();
  }

  override formData(): Promise<FormData> {
    return this.#read().formData();
  }

  override clone(): Response {
    return this.#read().clone();
  }
}

/** JSON responses, as Response.json makes them: JSON.stringify, which writes own `__proto__` keys like any other. */
export function json(data: unknown, status = 200, headers?: HeadersInit): Response {
  const text: unknown = JSON.stringify(data);
  if (typeof text !== 'string') throw new TypeError('Value is not JSON serializable');
  const init = { status, headers: withJsonType(headers) };
  // A status that has no body refuses one at once, as Response does.
  const response = NULL_BODY_STATUSES.has(status) ? new Response(text, init) : new JsonResponse(text, init);
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
