import { Readable } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiRequest, HeaderReader } from './api-request';
import { holdWholeBody } from './body';
import { madeFromUrl } from './request-url';

/**
 * The request an /api handler gets from the server's door: Node's parsed
 * request, read where it is. Its body stream and its signal are made only
 * when a handler asks for them; most ask for neither.
 */
export class DoorRequest implements ApiRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: HeaderReader;
  readonly #incoming: IncomingMessage;
  readonly #out: ServerResponse;
  readonly #whole: Uint8Array<ArrayBuffer> | undefined;
  #body: ReadableStream<Uint8Array> | null | undefined;
  #signal: AbortSignal | undefined;

  /** `whole`: the body, when the door read it all before (as readBodyBytes then takes it). */
  constructor(incoming: IncomingMessage, out: ServerResponse, url: URL, headers: HeaderReader, whole?: Uint8Array<ArrayBuffer>) {
    this.method = incoming.method ?? 'GET';
    this.url = url.href;
    this.headers = headers;
    this.#incoming = incoming;
    this.#out = out;
    this.#whole = whole;
    madeFromUrl(this, url);
    if (whole !== undefined) holdWholeBody(this, whole);
  }

  /** As a web Request's: null for GET and HEAD; otherwise a stream, over the bytes read already or over the socket. */
  get body(): ReadableStream<Uint8Array> | null {
    if (this.#body === undefined) {
      if (this.method === 'GET' || this.method === 'HEAD') this.#body = null;
      else if (this.#whole !== undefined) this.#body = new Blob([this.#whole]).stream();
      else this.#body = Readable.toWeb(this.#incoming) as ReadableStream<Uint8Array>;
    }
    return this.#body;
  }

  get signal(): AbortSignal {
    if (this.#signal === undefined) {
      const controller = new AbortController();
      const out = this.#out;
      const abortUnlessAnswered = () => {
        if (!out.writableFinished) controller.abort();
      };
      if (out.closed) abortUnlessAnswered();
      else out.once('close', abortUnlessAnswered);
      this.#signal = controller.signal;
    }
    return this.#signal;
  }
}
