import type { ChatMessage } from './chat-message.ts';
import type { FinishReason } from './finish-reason.ts';
import type { GenerationSettings } from './generation-settings.ts';
import type { ModelPrices } from './model-prices.ts';
import type { ProviderEventListener } from './provider-event.ts';
import type { TokenUsage } from './token-usage.ts';

/** The input of one model call: one turn of the ask loop. */
export interface GenerateOptions {
  /** System text (the bootstrap rules); sent as the provider's system prompt. */
  system?: string | undefined;
  /** The envelope text of this turn, sent as the last user message. */
  prompt: string;
  /** Earlier turns, oldest first, sent between the system text and the prompt. */
  messages?: readonly ChatMessage[] | undefined;
  settings?: GenerationSettings | undefined;
  /** Aborting cancels the call at once; an aborted call is never retried. */
  signal?: AbortSignal | undefined;
  /**
   * When given, the reply is streamed and each text delta is passed here as
   * it arrives; the returned result is the same as without it.
   */
  onText?: ((delta: string) => void) | undefined;
  /** Per-call listener, in addition to the provider's `onEvent`. */
  onEvent?: ProviderEventListener | undefined;
  /** Overrides the model's per-attempt timeout for this call. */
  timeoutMs?: number | undefined;
}

/** The outcome of one successful model call. */
export interface GenerateResult {
  text: string;
  usage: TokenUsage;
  finishReason: FinishReason;
  /** The provider's own finish reason string (`end_turn`, `STOP`, …). */
  rawFinishReason?: string | undefined;
  /** Wall time of the whole call, retries and waits included (and, on a model's first call, its SDK's load). */
  latencyMs: number;
  /** Number of attempts made (1 when the first one succeeded). */
  attempts: number;
  /** The redacted provider response (JSON body, or the list of stream chunks) for the transcript. */
  raw: unknown;
  /** Cost in US dollars, when prices are configured for the model. */
  costUsd?: number | undefined;
  provider: string;
  model: string;
  /** Settings the provider could not honour, and similar notes. */
  warnings: string[];
}

/** A model the controller can call. Obtain one from a provider or the registry. */
export interface LanguageModel {
  readonly provider: string;
  readonly modelId: string;
  readonly prices?: ModelPrices | undefined;
  generate(options: GenerateOptions): Promise<GenerateResult>;
  /**
   * The keys this model sends (read now: a key may come from the
   * environment at call time). The controller replaces them in what tools
   * give back, so a tool's error that quotes one never reaches the model or
   * a record. Never throws; a model without it names none.
   */
  secrets?(): readonly (string | undefined | null)[];
}
