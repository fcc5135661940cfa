// One line that says what an event was, for places that list events without
// room for the whole of each (the compare view's diverging events).
import { ownEntries } from './json';
import type { Event } from './types';

/** Characters of a gist; past this it ends in an ellipsis. */
export const GIST_CHARS = 240;

/** Its text, tool calls and responses, error and the keys its delta set, in that order. */
export function eventGist(event: Event): string {
  const bits: string[] = [];
  for (const part of event.content?.parts ?? []) {
    if (typeof part.text === 'string' && part.text.trim()) bits.push(part.text.trim());
    if (part.functionCall) bits.push(`calls ${part.functionCall.name}`);
    if (part.functionResponse) bits.push(`${part.functionResponse.name} answered`);
  }
  if (event.errorCode || event.errorMessage) bits.push(`error ${[event.errorCode, event.errorMessage].filter(Boolean).join(': ')}`);
  const keys = ownEntries(event.actions.stateDelta ?? {}).map(([key]) => key);
  if (keys.length > 0) bits.push(`sets ${keys.join(', ')}`);
  const text = bits.join(' · ').replace(/\s+/g, ' ');
  return text.length > GIST_CHARS ? `${text.slice(0, GIST_CHARS - 1)}…` : text;
}
