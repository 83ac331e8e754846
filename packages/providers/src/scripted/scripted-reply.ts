import type { ProviderErrorCode } from '../errors/provider-error-code.ts';
import type { ChatMessage } from '../model/chat-message.ts';
import type { FinishReason } from '../model/finish-reason.ts';
import type { GenerationSettings } from '../model/generation-settings.ts';
import type { TokenUsage } from '../model/token-usage.ts';

/** One scripted answer: a reply text, or a failure to simulate. */
export type ScriptedReply =
  | string
  | {
      text?: string | undefined;
      usage?: Partial<TokenUsage> | undefined;
      finishReason?: FinishReason | undefined;
      /** Streamed in these pieces (default: word by word). */
      chunks?: readonly string[] | undefined;
      /** Waits this long first (abortable; the per-attempt timeout applies). */
      delayMs?: number | undefined;
      /** Fails this attempt with this code instead of replying (retryable codes are retried). */
      error?: ProviderErrorCode | undefined;
      errorMessage?: string | undefined;
      retryAfterMs?: number | undefined;
    };

/** What a reply function sees: the attempt's input. */
export interface ScriptedTurn {
  /** 0-based count of attempts this model has served (a retried call uses two). */
  index: number;
  system: string | undefined;
  prompt: string;
  messages: readonly ChatMessage[];
  settings: GenerationSettings;
}

/** A list of replies (one per attempt, in order) or a function of the turn. */
export type ScriptedReplies = readonly ScriptedReply[] | ((turn: ScriptedTurn) => ScriptedReply | Promise<ScriptedReply>);
