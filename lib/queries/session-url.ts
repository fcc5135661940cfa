// What the session page keeps in its URL, so every view is a deep link:
// the selected event (time travel), the event compared with it, and the
// timeline's filters. `?event=37&compare=12&author=agent&invocation=e-1&key=user:plan&text=refund`
import { normalFilters, type NormalFilters } from './session';

export interface SessionUrlState {
  /** The selected event's sequence number: the state columns show the state right after it. */
  event: number | null;
  /** A second event: the page shows the state diff between the two. */
  compare: number | null;
  filters: NormalFilters;
}

const MAX_TEXT = 300;

/** A URL parameter as an event's sequence number (a positive integer), or null. */
export function seqOf(text: string | null | undefined): number | null {
  if (!text || !/^\d{1,15}$/.test(text)) return null;
  const seq = Number(text);
  return seq >= 1 && Number.isSafeInteger(seq) ? seq : null;
}

/** A URL parameter as seconds since the epoch, or undefined. */
function secondsOf(text: string | null | undefined): number | undefined {
  if (!text || !/^\d{1,12}(\.\d{1,6})?$/.test(text)) return undefined;
  return Number(text);
}

function textOf(text: string | null | undefined): string | undefined {
  return text ? text.slice(0, MAX_TEXT) : undefined;
}

/** Reads the state from search parameters (URLSearchParams in the browser, the page's searchParams on the server). */
export function parseSessionUrl(get: (name: string) => string | null | undefined): SessionUrlState {
  const event = seqOf(get('event'));
  const compare = event === null ? null : seqOf(get('compare'));
  return {
    event,
    compare: compare === event ? null : compare,
    filters: normalFilters({
      author: textOf(get('author')),
      invocationId: textOf(get('invocation')),
      key: textOf(get('key')),
      text: textOf(get('text')),
      tool: textOf(get('tool')),
      errors: get('errors') === '1',
      from: secondsOf(get('from')),
      to: secondsOf(get('to')),
    }),
  };
}

/** `?event=…&…` for a state (empty string when there is nothing to keep). */
export function sessionUrlSearch(state: SessionUrlState): string {
  const params = new URLSearchParams();
  if (state.event !== null) params.set('event', String(state.event));
  if (state.event !== null && state.compare !== null) params.set('compare', String(state.compare));
  if (state.filters.author !== null) params.set('author', state.filters.author);
  if (state.filters.invocationId !== null) params.set('invocation', state.filters.invocationId);
  if (state.filters.key !== null) params.set('key', state.filters.key);
  if (state.filters.text !== null) params.set('text', state.filters.text);
  if (state.filters.tool !== null) params.set('tool', state.filters.tool);
  if (state.filters.errors) params.set('errors', '1');
  if (state.filters.from !== null) params.set('from', String(state.filters.from));
  if (state.filters.to !== null) params.set('to', String(state.filters.to));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A searchParams record (the page's prop) as a getter. */
export function fromRecord(record: Record<string, string | string[] | undefined>): (name: string) => string | undefined {
  return (name) => {
    const value = record[name];
    return Array.isArray(value) ? value[0] : value;
  };
}
