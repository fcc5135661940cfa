// The fields of ADK's pydantic models (Event and what it nests), by their
// camelCase names: which values are models whose own names convert between
// snake_case and camelCase, and which are opaque maps whose keys are data.
// Shared by the HTTP edge (snake_case requests) and the stores ADK Python
// writes (snake_case event_data).

/** One level of a model: camelCase field name → how its value is treated. */
export interface Shape {
  readonly [camelName: string]: Nested;
}
/** null: a scalar or an opaque map, copied as is. */
export type Nested = null | { readonly fields: Shape } | { readonly items: Shape };

export const fields = (shape: Shape): Nested => ({ fields: shape });
export const items = (shape: Shape): Nested => ({ items: shape });

const BLOB: Shape = { mimeType: null, data: null, displayName: null };
const FILE_DATA: Shape = { fileUri: null, mimeType: null, displayName: null };
const FUNCTION_CALL: Shape = { id: null, name: null, args: null, partialArgs: null, willContinue: null };
const FUNCTION_RESPONSE: Shape = {
  id: null,
  name: null,
  response: null,
  willContinue: null,
  scheduling: null,
  parts: items({ inlineData: fields(BLOB), fileData: fields(FILE_DATA) }),
};
const PART: Shape = {
  text: null,
  thought: null,
  thoughtSignature: null,
  inlineData: fields(BLOB),
  fileData: fields(FILE_DATA),
  functionCall: fields(FUNCTION_CALL),
  functionResponse: fields(FUNCTION_RESPONSE),
  executableCode: fields({ code: null, language: null }),
  codeExecutionResult: fields({ outcome: null, output: null }),
  videoMetadata: fields({ startOffset: null, endOffset: null, fps: null }),
  mediaResolution: null,
};
const CONTENT: Shape = { role: null, parts: items(PART) };
const MODALITY_COUNTS = items({ modality: null, tokenCount: null });
const USAGE: Shape = {
  promptTokenCount: null,
  candidatesTokenCount: null,
  totalTokenCount: null,
  cachedContentTokenCount: null,
  thoughtsTokenCount: null,
  toolUsePromptTokenCount: null,
  promptTokensDetails: MODALITY_COUNTS,
  candidatesTokensDetails: MODALITY_COUNTS,
  cacheTokensDetails: MODALITY_COUNTS,
  toolUsePromptTokensDetails: MODALITY_COUNTS,
  trafficType: null,
};
const ACTIONS: Shape = {
  stateDelta: null,
  artifactDelta: null,
  transferToAgent: null,
  escalate: null,
  skipSummarization: null,
  requestedAuthConfigs: null,
  requestedToolConfirmations: null,
  compaction: fields({ startTimestamp: null, endTimestamp: null, compactedContent: fields(CONTENT) }),
  endOfAgent: null,
  agentState: null,
  rewindBeforeInvocationId: null,
};
const TRANSCRIPTION = fields({ text: null, finished: null });

/** ADK's Event (with the LlmResponse fields it inherits). */
export const EVENT_SHAPE: Shape = {
  id: null,
  invocationId: null,
  author: null,
  branch: null,
  timestamp: null,
  content: fields(CONTENT),
  actions: fields(ACTIONS),
  partial: null,
  turnComplete: null,
  finishReason: null,
  errorCode: null,
  errorMessage: null,
  interrupted: null,
  customMetadata: null,
  usageMetadata: fields(USAGE),
  longRunningToolIds: null,
  groundingMetadata: null,
  citationMetadata: null,
  avgLogprobs: null,
  logprobsResult: null,
  cacheMetadata: null,
  inputTranscription: TRANSCRIPTION,
  outputTranscription: TRANSCRIPTION,
  liveSessionResumptionUpdate: null,
  modelVersion: null,
  interactionId: null,
};
