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

// google-genai's GroundingMetadata and CitationMetadata (@google/genai 1.x
// types): models all the way down, so every name converts, as adk-js's
// event_data conversion renames them (no key inside them is data).
const SEGMENT: Shape = { startIndex: null, endIndex: null, partIndex: null, text: null };
const REVIEW_SNIPPET: Shape = {
  authorAttribution: fields({ displayName: null, uri: null, photoUri: null }),
  flagContentUri: null,
  googleMapsUri: null,
  relativePublishTimeDescription: null,
  review: null,
  reviewId: null,
  title: null,
};
const GROUNDING_CHUNK: Shape = {
  web: fields({ domain: null, title: null, uri: null }),
  image: fields({ domain: null, imageUri: null, sourceUri: null, title: null }),
  retrievedContext: fields({
    documentName: null,
    ragChunk: fields({ chunkId: null, fileId: null, pageSpan: fields({ firstPage: null, lastPage: null }), text: null }),
    text: null,
    title: null,
    uri: null,
    customMetadata: items({ key: null, numericValue: null, stringListValue: fields({ values: null }), stringValue: null }),
    fileSearchStore: null,
    mediaId: null,
    pageNumber: null,
  }),
  maps: fields({
    placeAnswerSources: fields({ reviewSnippet: items(REVIEW_SNIPPET), reviewSnippets: items(REVIEW_SNIPPET), flagContentUri: null }),
    placeId: null,
    text: null,
    title: null,
    uri: null,
    route: null,
  }),
};
const GROUNDING_METADATA: Shape = {
  groundingChunks: items(GROUNDING_CHUNK),
  groundingSupports: items({ confidenceScores: null, groundingChunkIndices: null, segment: fields(SEGMENT), renderedParts: null }),
  retrievalMetadata: fields({ googleSearchDynamicRetrievalScore: null }),
  searchEntryPoint: fields({ renderedContent: null, sdkBlob: null }),
  webSearchQueries: null,
  googleMapsWidgetContextToken: null,
  imageSearchQueries: null,
  retrievalQueries: null,
  sourceFlaggingUris: items({ flagContentUri: null, sourceId: null }),
};
const CITATION_METADATA: Shape = {
  citations: items({
    startIndex: null,
    endIndex: null,
    license: null,
    publicationDate: fields({ day: null, month: null, year: null }),
    title: null,
    uri: null,
  }),
};

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
  groundingMetadata: fields(GROUNDING_METADATA),
  citationMetadata: fields(CITATION_METADATA),
  avgLogprobs: null,
  logprobsResult: null,
  cacheMetadata: null,
  inputTranscription: TRANSCRIPTION,
  outputTranscription: TRANSCRIPTION,
  liveSessionResumptionUpdate: null,
  modelVersion: null,
  interactionId: null,
};
