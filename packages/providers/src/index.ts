/**
 * @askloop/providers: model provider plugins for the ask loop. Every model
 * has the same `generate()` call with retries, timeouts, typed errors, token
 * accounting and key redaction. See README.md.
 */
// First, before anything that an old Node cannot load: one clear error on a Node that is too old.
import './node-version-check.ts';

// The model interface
export type { ChatMessage } from './model/chat-message.ts';
export type { FinishReason } from './model/finish-reason.ts';
export type { GenerationSettings } from './model/generation-settings.ts';
export type { GenerateOptions, GenerateResult, LanguageModel } from './model/language-model.ts';
export type { ModelPrices } from './model/model-prices.ts';
export type { LanguageModelOptions, Provider } from './model/provider.ts';
export type { ProviderEvent, ProviderEventListener } from './model/provider-event.ts';
export type { TokenUsage } from './model/token-usage.ts';

// Errors
export { PROVIDER_ERROR_CODES, RETRYABLE_CODES, type ProviderErrorCode } from './errors/provider-error-code.ts';
export {
  isProviderError,
  ProviderError,
  type ProviderErrorCause,
  type ProviderErrorJSON,
  type ProviderErrorOptions,
} from './errors/provider-error.ts';

// Registry
export { createProviderRegistry, type ProviderRegistry, type ProviderRegistryOptions } from './registry/create-provider-registry.ts';

// Building blocks for custom providers
export { createLanguageModel, DEFAULT_TIMEOUT_MS, type LanguageModelSpec } from './call/create-language-model.ts';
export { defineProvider, type ProviderDefinition } from './call/define-provider.ts';
export { describeThrown, providerNameProblem } from './call/provider-definition-check.ts';
export type { AttemptRequest, AttemptResult, ModelAttempt } from './call/model-attempt.ts';
export { attemptFetch } from './call/attempt-fetch.ts';
export { createNodeHttpFetch, nodeHttpFetch, type NodeHttpFetchOptions } from './call/node-http-fetch.ts';
export { followSignal } from './call/follow-signal.ts';
export type { ProviderSettings } from './call/provider-settings.ts';
export { computeCost } from './call/compute-cost.ts';
export { estimateTokens } from './call/estimate-usage.ts';
export { createRedactor, REDACTED, secretForms, type Redactor } from './redact/create-redactor.ts';
export { redactorCache } from './redact/redactor-cache.ts';
export { DEFAULT_RETRY, type RetrySettings } from './retry/retry-settings.ts';
export { parseRetryAfter } from './retry/parse-retry-after.ts';
export { streamGenerate, type StreamGenerateResult } from './stream/stream-generate.ts';
export { readServerSentEvents, DRAIN_LIMITS, type DrainLimits, type ReadServerSentEventsOptions } from './stream/read-server-sent-events.ts';
export { ServerSentEventParser, type ServerSentEvent } from './stream/server-sent-event-parser.ts';

// Providers
export { createOpenAIProvider, openai, type OpenAIProviderSettings } from './openai/openai-provider.ts';
export { createOpenAICompatibleProvider, type OpenAICompatibleProviderSettings } from './openai/openai-compatible-provider.ts';
export { anthropic, createAnthropicProvider, type AnthropicProviderSettings } from './anthropic/anthropic-provider.ts';
export { createGoogleProvider, google, type GoogleProviderSettings } from './google/google-provider.ts';
export { createOllamaProvider, ollama, OLLAMA_DEFAULT_HOST, type OllamaProviderSettings } from './ollama/ollama-provider.ts';
export { createAISDKProvider, fromAISDK, type AISDKAdapterSettings } from './ai-sdk/ai-sdk-provider.ts';
export type { AISDKLanguageModel } from './ai-sdk/ai-sdk-types.ts';
export { createScriptedModel, createScriptedProvider, type ScriptedModelSettings } from './scripted/scripted-provider.ts';
export type { ScriptedReplies, ScriptedReply, ScriptedTurn } from './scripted/scripted-reply.ts';
export { createReplayModel, type ReplayModelSettings, type ReplaySource } from './replay/replay-provider.ts';
export { parseReplayTranscript } from './replay/parse-replay-transcript.ts';
export { REPLAY_RECORD_TYPE, type ReplayRecord } from './replay/replay-record.ts';
