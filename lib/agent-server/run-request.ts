// The body Statehouse posts to an agent server's /run_sse. Its shape is
// the API servers' request schema: adk-python's RunAgentRequest
// (src/google/adk/cli/adk_web_server.py; its fields take camelCase aliases,
// src/google/adk/cli/utils/common.py) and adk-js's api_server, which reads
// exactly these camelCase names (@google/adk-devtools, server/adk_api_server.ts).
// docs/agent-servers.md cites the commits.
import type { SessionRef } from '../session-service/store';

export interface RunRequest {
  appName: string;
  userId: string;
  sessionId: string;
  newMessage: { role: 'user'; parts: { text: string }[] };
  /**
   * false: one SSE message per event the agent stores. True asks for token
   * streaming, whose partial events are never stored, so no timeline row
   * could match them.
   */
  streaming: false;
  /** Applied by the agent's runner with the message, in the user event's delta (RunAgentRequest.state_delta). */
  stateDelta?: Record<string, unknown>;
}

export function runRequest(ref: SessionRef, text: string, stateDelta?: Record<string, unknown>): RunRequest {
  return {
    ...(stateDelta ? { stateDelta } : {}),
    appName: ref.appName,
    userId: ref.userId,
    sessionId: ref.sessionId,
    newMessage: { role: 'user', parts: [{ text }] },
    streaming: false,
  };
}
