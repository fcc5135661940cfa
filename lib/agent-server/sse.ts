// Server-sent events, as far as an ADK API server uses them: `data:` lines,
// an empty line ends an event (https://html.spec.whatwg.org/multipage/server-sent-events.html).

/** The largest single event accepted: a bigger one is a stream gone wrong, not an event. */
export const MAX_EVENT_CHARS = 16 * 1024 * 1024;

export class StreamTooLargeError extends Error {}

/** The `data` of each event in the stream, lines joined by `\n`; comments and other fields are skipped. */
export async function* sseData(chunks: AsyncIterable<string>): AsyncGenerator<string, void> {
  let buffer = '';
  let data: string[] = [];
  let size = 0;
  const line = (text: string): string | null => {
    if (text === '') {
      const event = data.length > 0 ? data.join('\n') : null;
      data = [];
      size = 0;
      return event;
    }
    if (text.startsWith(':')) return null;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    if (field !== 'data') return null;
    const value = colon === -1 ? '' : text.slice(colon + 1).replace(/^ /, '');
    size += value.length;
    if (size > MAX_EVENT_CHARS) throw new StreamTooLargeError(`an event of more than ${MAX_EVENT_CHARS} characters`);
    data.push(value);
    return null;
  };
  for await (const chunk of chunks) {
    buffer += chunk;
    let end: RegExpExecArray | null;
    const lineEnd = /\r\n|\r|\n/g;
    let start = 0;
    while ((end = lineEnd.exec(buffer)) !== null) {
      // A lone \r at the end of the buffer may be the first half of \r\n.
      if (end[0] === '\r' && end.index === buffer.length - 1) break;
      const event = line(buffer.slice(start, end.index));
      start = end.index + end[0].length;
      if (event !== null) yield event;
    }
    buffer = buffer.slice(start);
    if (buffer.length > MAX_EVENT_CHARS) throw new StreamTooLargeError(`a line of more than ${MAX_EVENT_CHARS} characters`);
  }
  // A stream that ends without the final empty line still ends its last event.
  if (buffer !== '') line(buffer);
  const last = line('');
  if (last !== null) yield last;
}
