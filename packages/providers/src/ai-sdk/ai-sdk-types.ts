/**
 * The slice of the AI SDK's `LanguageModelV2`/`V3`/`V4` specification this
 * adapter uses, declared structurally so that `@ai-sdk/provider` stays an
 * optional peer: nothing of it is imported, at runtime or for types.
 */
export interface AISDKLanguageModel {
  readonly specificationVersion: 'v2' | 'v3' | 'v4';
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: AISDKCallOptions): PromiseLike<AISDKGenerateResult>;
  doStream(options: AISDKCallOptions): PromiseLike<{ stream: ReadableStream<AISDKStreamPart> }>;
}

/** Call options we send (a subset of `LanguageModelV*CallOptions`). */
export interface AISDKCallOptions {
  prompt: AISDKMessage[];
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stopSequences?: string[];
  seed?: number;
  abortSignal?: AbortSignal;
}

/** Prompt messages: the system text is a string, the others are text parts. */
export type AISDKMessage =
  | { role: 'system'; content: string }
  | { role: 'user' | 'assistant'; content: { type: 'text'; text: string }[] };

/** V2 usage is flat; V3 and V4 nest totals and cache reads. */
export type AISDKUsage =
  | { inputTokens?: number | undefined; outputTokens?: number | undefined; cachedInputTokens?: number | undefined }
  | {
      inputTokens: { total?: number | undefined; cacheRead?: number | undefined };
      outputTokens: { total?: number | undefined };
    };

/** V2 finish reasons are strings; V3 and V4 carry `{ unified, raw }`. */
export type AISDKFinishReason = string | { unified: string; raw?: string | undefined };

/** The parts of a generate result we read. */
export interface AISDKGenerateResult {
  content: readonly { type: string; text?: string }[];
  finishReason: AISDKFinishReason;
  usage: AISDKUsage;
  response?: { body?: unknown } | undefined;
}

/** The stream parts we read; others are kept in `raw` and otherwise ignored. */
export type AISDKStreamPart =
  | { type: 'text-delta'; delta?: string; textDelta?: string }
  | { type: 'finish'; usage: AISDKUsage; finishReason: AISDKFinishReason }
  | { type: 'error'; error: unknown }
  | { type: string };
