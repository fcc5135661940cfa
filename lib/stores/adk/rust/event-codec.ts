// adk-rust v2.0.0 events: one row per event with the LlmResponse, the
// EventActions and the long-running tool ids as three JSON columns (serde,
// snake_case, adk-core/src/model.rs, event.rs), parts untagged
// (adk-core/src/types.rs `Part`). Statehouse shows them in ADK's camelCase
// shape; writes turn them back, refusing what Rust could not read (its
// `get` silently drops an event whose columns fail to deserialise).
import { invalidInput } from '../../../session-service/errors';
import type { Row } from '../agent-db';
import { mayBeSpelledApart, spellJson, type SpelledJson } from '../../../session-service/json-spelling';
import { spelledRecord, type ValueSpellings } from '../../../session-service/value-spelling';
import { compactJson } from '../python/json-dumps';
import { columnEvent } from '../base/column-event';
import { readJson, UnreadableValueError } from '../base/unreadable';
import type { Content, Event, JsonObject, Part } from '../../../session-service/types';

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const parsed = (raw: unknown, column: string): unknown => readJson(raw, column);
const camel = (key: string) => key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [camel(k), camelKeys(v)]));
}

/** One untagged Rust part as ADK's Part. */
function decodePart(part: unknown): Part {
  if (!isObject(part)) return {};
  if (typeof part.thinking === 'string')
    return { text: part.thinking, thought: true, ...(part.signature ? { thoughtSignature: part.signature } : {}) };
  if (typeof part.text === 'string') return { text: part.text };
  if (typeof part.name === 'string' && 'args' in part) {
    return { functionCall: { name: part.name, args: part.args as JsonObject, ...(part.id ? { id: part.id as string } : {}) } };
  }
  if (isObject(part.functionResponse)) {
    const data = part.functionResponse;
    return {
      functionResponse: { ...(part.id ? { id: part.id as string } : {}), name: String(data.name), response: data.response as JsonObject },
    };
  }
  if (typeof part.mime_type === 'string' && Array.isArray(part.data)) {
    return { inlineData: { mimeType: part.mime_type, data: Buffer.from(part.data as number[]).toString('base64') } };
  }
  if (typeof part.mime_type === 'string' && typeof part.file_uri === 'string')
    return { fileData: { mimeType: part.mime_type, fileUri: part.file_uri } };
  return camelKeys(part) as Part;
}

/** Rust serialises every flag and None; ADK's dumps leave out nulls and false flags, and so does Statehouse's view. */
const shown = (value: unknown) => value !== null && value !== false;

/** A row of `events` (id, invocation_id, branch, author, timestamp, llm_response, actions, long_running_tool_ids). */
export function decodeRustEvent(row: Row, timestamp: number): Event {
  // serde refuses a column of another shape, and adk-rust's get then drops the event: here it is shown, marked.
  const response = row.llm_response === null || row.llm_response === undefined ? {} : parsed(row.llm_response, 'llm_response');
  if (!isObject(response)) throw new UnreadableValueError('llm_response', row.llm_response, 'an LlmResponse must be a JSON object');
  const llm: Obj = response;
  const actions = parsed(row.actions, 'actions');
  if (!isObject(actions)) throw new UnreadableValueError('actions', row.actions, 'EventActions must be a JSON object');
  const toolIds =
    row.long_running_tool_ids === null || row.long_running_tool_ids === undefined
      ? []
      : parsed(row.long_running_tool_ids, 'long_running_tool_ids');
  if (!Array.isArray(toolIds))
    throw new UnreadableValueError('long_running_tool_ids', row.long_running_tool_ids, 'must be a JSON list of ids');
  const rest = Object.fromEntries(Object.entries(actions).filter(([k, v]) => shown(v) && k !== 'state_delta' && k !== 'artifact_delta'));
  const event = columnEvent(row, timestamp, camelKeys(rest) as Obj, {
    stateDelta: actions.state_delta,
    artifactDelta: actions.artifact_delta,
    requestedToolConfirmations: {},
  });
  if (typeof row.branch === 'string' && row.branch !== '') event.branch = row.branch;
  if (Array.isArray(toolIds) && toolIds.length > 0) event.longRunningToolIds = toolIds as string[];
  for (const [key, value] of Object.entries(llm)) {
    if (!shown(value) || key === 'content') continue;
    event[camel(key)] = camelKeys(value);
  }
  if (isObject(llm.content)) {
    const content = llm.content;
    // A part serde cannot read (null, a number) stays as it is, for the shared check to mark.
    const parts = Array.isArray(content.parts) ? content.parts.map((part: unknown) => (isObject(part) ? decodePart(part) : part)) : [];
    event.content = { role: String(content.role ?? ''), parts: parts as Part[] };
  }
  return event;
}

/** An ADK part as Rust's untagged Part, or INVALID_INPUT for one Rust has no variant for. */
function encodePart(part: Part): Obj {
  if (typeof part.text === 'string') return part.thought === true ? { thinking: part.text } : { text: part.text };
  if (part.functionCall) {
    const { name, args, id } = part.functionCall;
    return { name, args: args ?? {}, ...(id ? { id } : {}) };
  }
  if (part.functionResponse) {
    const { name, response, id } = part.functionResponse;
    return { functionResponse: { name, response: response ?? {} }, ...(id ? { id } : {}) };
  }
  if (part.inlineData?.mimeType && typeof part.inlineData.data === 'string') {
    return { mime_type: part.inlineData.mimeType, data: [...Buffer.from(part.inlineData.data, 'base64')] };
  }
  throw invalidInput(
    `adk-rust stores text, thought, functionCall, functionResponse and inlineData parts; not ${Object.keys(part).join(', ') || 'an empty part'}.`,
  );
}

function encodeContent(content: Content | undefined): Obj | null {
  if (!content) return null;
  return { role: content.role ?? '', parts: (content.parts ?? []).map(encodePart) };
}

const USAGE_FIELDS = ['promptTokenCount', 'candidatesTokenCount', 'totalTokenCount'];

/** The three JSON columns Rust's append_event binds: serde of LlmResponse, EventActions, Vec<String>. */
export function encodeRustEvent(
  event: Event,
  deltaSpellings?: ValueSpellings,
): { llmResponse: string; actions: string; longRunningToolIds: string } {
  const usage = isObject(event.usageMetadata)
    ? Object.fromEntries(USAGE_FIELDS.map((field) => [snake(field), Number((event.usageMetadata as Obj)[field] ?? 0)]))
    : null;
  const llmResponse = {
    content: encodeContent(event.content),
    usage_metadata: usage,
    finish_reason: null,
    partial: event.partial === true,
    turn_complete: event.turnComplete === true,
    interrupted: event.interrupted === true,
    error_code: event.errorCode ?? null,
    error_message: event.errorMessage ?? null,
  };
  const actions = {
    state_delta: event.actions.stateDelta,
    artifact_delta: event.actions.artifactDelta ?? {},
    skip_summarization: event.actions.skipSummarization === true,
    transfer_to_agent: event.actions.transferToAgent ?? null,
    escalate: event.actions.escalate === true,
  };
  return {
    llmResponse: JSON.stringify(llmResponse),
    // serde_json keeps a float a float: the delta's values as the request spelled them.
    actions: compactJson(actions, deltaSpellings && { kind: 'object', entries: new Map([['state_delta', spelledRecord(deltaSpellings)]]) }),
    longRunningToolIds: JSON.stringify(event.longRunningToolIds ?? []),
  };
}

/** FamilyCodec.deltaSpelling: the `actions` column's state_delta as serde_json wrote it. */
export function rustDeltaSpelling(row: Row): SpelledJson | null {
  const actions = row.actions;
  if (typeof actions !== 'string' || !mayBeSpelledApart(actions)) return null;
  const spelled = spellJson(actions);
  const delta = spelled?.kind === 'object' ? spelled.entries.get('state_delta') : undefined;
  return delta?.kind === 'object' ? delta : null;
}
