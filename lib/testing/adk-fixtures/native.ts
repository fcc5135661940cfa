// The scenario written into Statehouse's own store through its API, with
// the events converted from Python's field names by the HTTP edge's
// converter (as a snake_case ADK client's would be).
import { convertAdkFields, EVENT_SHAPE } from '../../validation/adk-case';
import type { SessionStore } from '../../session-service/store';
import type { NewEvent } from '../../session-service/types';
import type { ScenarioSession } from './scenario';

export async function writeNativeScenario(store: SessionStore, appName: string, sessions: ScenarioSession[]): Promise<void> {
  for (const session of sessions) {
    const ref = { appName, userId: session.userId, sessionId: session.sessionId };
    await store.createSession(ref);
    for (const event of session.events) await store.append(ref, convertAdkFields(event, EVENT_SHAPE) as unknown as NewEvent);
  }
}
