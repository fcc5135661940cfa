import { createEvent, type Event } from '@google/adk';
import type { BenchEvent } from './types';

/** The bench event as adk-js builds events (id and millisecond timestamp filled in by createEvent). */
export function adkEvent(event: BenchEvent, timestamp?: number): Event {
  return createEvent({
    author: event.author,
    invocationId: event.invocationId,
    content: { role: 'model', parts: [{ text: event.text }] },
    actions: { stateDelta: event.stateDelta },
    ...(timestamp === undefined ? {} : { timestamp }),
  });
}
