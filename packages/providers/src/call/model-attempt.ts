import type { ChatMessage } from '../model/chat-message.ts';
import type { FinishReason } from '../model/finish-reason.ts';
import type { GenerationSettings } from '../model/generation-settings.ts';
import type { TokenUsage } from '../model/token-usage.ts';

/** The input of one attempt, handed by `createLanguageModel` to a provider's wire code. */
export interface AttemptRequest {
  system: string | undefined;
  prompt: string;
  messages: readonly ChatMessage[];
  settings: GenerationSettings;
  /** Aborts on caller abort or per-attempt timeout; pass it to the SDK. */
  signal: AbortSignal;
  /** Present when the caller streams; call it with each text delta. */
  onText: ((delta: string) => void) | undefined;
  /** Fetch for the SDK: tied to `signal`, and records status and headers. */
  fetch: typeof globalThis.fetch;
  /** 1-based attempt number. */
  attempt: number;
}

/** What one successful attempt produced, before redaction and cost. */
export interface AttemptResult {
  text: string;
  usage: TokenUsage;
  finishReason: FinishReason;
  rawFinishReason?: string | undefined;
  raw: unknown;
  warnings?: string[] | undefined;
}

/** A provider's wire code: performs one request, without retries. */
export type ModelAttempt = (request: AttemptRequest) => Promise<AttemptResult>;
