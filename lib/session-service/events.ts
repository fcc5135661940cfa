import { invalidInput } from './errors';
import { withoutTempKeys } from './scope';
import type { Event, EventActions, NewEvent } from './types';

/** Seconds since the epoch as a float, as ADK timestamps are. */
export function nowSeconds(): number {
  return Date.now() / 1000;
}

export function newId(): string {
  return crypto.randomUUID();
}

/** Fills in what ADK fills in when absent: id, timestamp, invocation id and the actions' maps; no author is stored as ''. */
export function completeEvent(event: NewEvent): Event {
  const { actions, ...fields } = event;
  if (fields.author !== undefined && typeof fields.author !== 'string') throw invalidInput('event.author must be a string.');
  const timestamp = fields.timestamp ?? nowSeconds();
  if (!Number.isFinite(timestamp)) throw invalidInput('event.timestamp must be a finite number of seconds.');
  const completeActions: EventActions = {
    ...actions,
    stateDelta: actions?.stateDelta ?? {},
    artifactDelta: actions?.artifactDelta ?? {},
    requestedAuthConfigs: actions?.requestedAuthConfigs ?? {},
    requestedToolConfirmations: actions?.requestedToolConfirmations ?? {},
  };
  return {
    ...fields,
    id: fields.id || newId(),
    invocationId: fields.invocationId ?? '',
    author: fields.author ?? '',
    timestamp,
    actions: completeActions,
  };
}

/** The event as stored: its delta without temp: keys. */
export function storedForm(event: Event): Event {
  return { ...event, actions: { ...event.actions, stateDelta: withoutTempKeys(event.actions.stateDelta) } };
}
