import { describe, expect, it } from 'vitest';
import { convertAdkFields, CREATE_SESSION_SHAPE, EVENT_SHAPE } from './adk-case';
import { invalidInput } from '../session-service/errors';

describe('convertAdkFields', () => {
  it('renames known ADK fields at every level, and nothing inside data', () => {
    const event = JSON.parse(`{
      "invocation_id": "i", "turn_complete": true, "long_running_tool_ids": ["t_1"], "my_extra_field": {"keep_me": 1},
      "custom_metadata": {"trace_id": "x"},
      "usage_metadata": {"prompt_token_count": 3, "prompt_tokens_details": [{"token_count": 3, "modality": "TEXT"}]},
      "content": {"role": "model", "parts": [
        {"function_call": {"name": "f", "args": {"user_id": 1}}},
        {"function_response": {"name": "f", "response": {"result_code": 0}, "will_continue": false}},
        {"inline_data": {"mime_type": "text/plain", "data": "eA=="}}
      ]},
      "actions": {"state_delta": {"user:first_name": "Ada", "__proto__": 1}, "artifact_delta": {"my_file.txt": 0},
                  "transfer_to_agent": "b", "requested_auth_configs": {"call_1": {"auth_scheme": {}}}}
    }`);
    const converted = convertAdkFields(event, EVENT_SHAPE);
    expect(JSON.stringify(converted)).toBe(
      JSON.stringify(
        JSON.parse(`{
      "invocationId": "i", "turnComplete": true, "longRunningToolIds": ["t_1"], "my_extra_field": {"keep_me": 1},
      "customMetadata": {"trace_id": "x"},
      "usageMetadata": {"promptTokenCount": 3, "promptTokensDetails": [{"tokenCount": 3, "modality": "TEXT"}]},
      "content": {"role": "model", "parts": [
        {"functionCall": {"name": "f", "args": {"user_id": 1}}},
        {"functionResponse": {"name": "f", "response": {"result_code": 0}, "willContinue": false}},
        {"inlineData": {"mimeType": "text/plain", "data": "eA=="}}
      ]},
      "actions": {"stateDelta": {"user:first_name": "Ada", "__proto__": 1}, "artifactDelta": {"my_file.txt": 0},
                  "transferToAgent": "b", "requestedAuthConfigs": {"call_1": {"auth_scheme": {}}}}
    }`),
      ),
    );
  });

  it('leaves camelCase input and non-objects as they are', () => {
    const event = { invocationId: 'i', actions: { stateDelta: { a: 1 } } };
    expect(convertAdkFields(event, EVENT_SHAPE)).toEqual(event);
    expect(convertAdkFields([1], EVENT_SHAPE)).toEqual([1]);
    expect(convertAdkFields({ events: 'x' }, CREATE_SESSION_SHAPE)).toEqual({ events: 'x' });
  });

  it('converts every event of a create request', () => {
    expect(convertAdkFields({ session_id: 's', events: [{ error_code: 'E' }] }, CREATE_SESSION_SHAPE)).toEqual({
      sessionId: 's',
      events: [{ errorCode: 'E' }],
    });
  });

  it('refuses one field spelled both ways', () => {
    expect(() => convertAdkFields({ events: [{ actions: { state_delta: {}, stateDelta: {} } }] }, CREATE_SESSION_SHAPE)).toThrow(
      invalidInput('events.0.actions.stateDelta: given twice, as state_delta and stateDelta'),
    );
  });
});
