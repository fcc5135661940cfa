/**
 * What an API handler reads of its request. A web Request has all of it, so
 * Next's route files pass theirs; the server's door (api-door.ts) passes a
 * lighter one over Node's own request, since building a web Request and its
 * Headers is a measurable part of a small read's CPU there (docs/benchmarks.md).
 */
export interface ApiRequest {
  readonly method: string;
  /** The whole URL, as a web Request spells it. */
  readonly url: string;
  readonly headers: HeaderReader;
  readonly body: ReadableStream<Uint8Array> | null;
  /** Aborted when the client goes away before its answer is sent. */
  readonly signal: AbortSignal;
}

/** A request's headers as a web Headers reads them: names in any case, repeated values joined by `, `. */
export type HeaderReader = Pick<Headers, 'get' | 'has'>;
