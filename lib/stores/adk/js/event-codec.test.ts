// event_data's key conversion (adk-js's toSnakeCase with its preserved
// paths): field names convert, the keys that are data (state_delta, function
// args and responses, custom metadata) do not. adk-js-store.test.ts checks
// the same against adk-js's own DatabaseSessionService.
import { describe, expect, it } from 'vitest';
import { decodeAdkJsEvent, encodeAdkJsEvent } from './event-codec';
import type { Event, JsonObject } from '../../../session-service/types';

const event: Event = {
  id: 'ev-1',
  invocationId: 'inv-1',
  author: 'agent',
  timestamp: 1_767_225_601.25,
  turnComplete: true,
  customMetadata: { traceId: 'x', nested_key: { innerKey: 1 } },
  content: {
    role: 'model',
    parts: [
      { functionCall: { id: 'c1', name: 'book', args: { maxPrice: 200, city_name: 'Paris' } } },
      { functionResponse: { id: 'c1', name: 'book', response: { bookingId: 7 } } },
      { text: 'done', thoughtSignature: 'sig' },
    ],
  },
  actions: {
    stateDelta: { userName: 'Ada', 'user:homeCity': 'Berlin', snake_key: 1 },
    artifactDelta: { 'reportFile.txt': 2 },
    requestedAuthConfigs: {},
    requestedToolConfirmations: {},
    transferToAgent: 'helperAgent',
  },
};

describe('adk-js event_data', () => {
  it('is snake_case except the maps whose keys are data, with the timestamp in ms', () => {
    const stored = JSON.parse(encodeAdkJsEvent(event)) as Record<string, unknown>;
    expect(stored).toMatchObject({
      invocation_id: 'inv-1',
      turn_complete: true,
      timestamp: 1_767_225_601_250,
      long_running_tool_ids: [],
      custom_metadata: { traceId: 'x', nested_key: { innerKey: 1 } },
      actions: {
        state_delta: { userName: 'Ada', 'user:homeCity': 'Berlin', snake_key: 1 },
        artifact_delta: { 'reportFile.txt': 2 },
        transfer_to_agent: 'helperAgent',
      },
      content: {
        parts: [
          { function_call: { id: 'c1', name: 'book', args: { maxPrice: 200, city_name: 'Paris' } } },
          { function_response: { id: 'c1', name: 'book', response: { bookingId: 7 } } },
          { text: 'done', thought_signature: 'sig' },
        ],
      },
    });
  });

  it('decodes back to the same event', () => {
    const decoded = decodeAdkJsEvent(JSON.parse(encodeAdkJsEvent(event)) as JsonObject, {
      id: 'ev-1',
      invocationId: 'inv-1',
      timestampMs: 0,
    });
    expect(decoded).toEqual({ ...event, longRunningToolIds: [] });
  });
});
