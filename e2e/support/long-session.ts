// A long conversation for scale tests and screenshots: turns of a user
// message, a tool call and its response (with a state delta) and the
// agent's answer, appended through the service as an agent would.
import type { NewEvent, Session, SessionStore } from '../../lib/session-service';
import { appendEvents, invocationId, textEvent, toolCallEvents } from '../../lib/testing/factories';

/** Four events per turn; `eventCount` is rounded up to whole turns. */
export function conversationEvents(eventCount: number, agent = 'assistant'): NewEvent[] {
  const events: NewEvent[] = [];
  for (let turn = 1; events.length < eventCount; turn += 1) {
    const invocation = invocationId();
    events.push(textEvent('user', `Question ${turn}: what is ${turn} squared?`, { invocationId: invocation }));
    events.push(
      ...toolCallEvents(
        agent,
        { name: 'calculator', args: { expression: `${turn}^2` }, response: { result: turn * turn } },
        { invocationId: invocation, stateDelta: { last_result: turn * turn, turns: turn, 'user:questions_asked': turn } },
      ),
    );
    events.push(textEvent(agent, `${turn} squared is ${turn * turn}.`, { invocationId: invocation }));
  }
  return events;
}

/** Appends a long conversation, spaced one second apart and ending about now. */
export async function appendConversation(service: SessionStore, session: Session, eventCount: number): Promise<void> {
  const events = conversationEvents(eventCount);
  await appendEvents(service, session, events, { startAt: Date.now() / 1000 - events.length, spacingSeconds: 1 });
}
