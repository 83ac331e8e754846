import type { ProviderErrorCode } from '../errors/provider-error-code.ts';
import type { FinishReason } from '../model/finish-reason.ts';
import type { TokenUsage } from '../model/token-usage.ts';

/** The `type` of the transcript records a replay model reads. */
export const REPLAY_RECORD_TYPE = 'model-reply';

/**
 * One model reply in a transcript (one JSON object per line). The controller
 * writes these; other record types in the same file are skipped. Only `type`
 * and either `text` or `error` are required.
 */
export interface ReplayRecord {
  type: typeof REPLAY_RECORD_TYPE;
  /** 1-based turn number, informational. */
  turn?: number | undefined;
  provider?: string | undefined;
  model?: string | undefined;
  text?: string | undefined;
  usage?: TokenUsage | undefined;
  finishReason?: FinishReason | undefined;
  latencyMs?: number | undefined;
  /** A failed call: replayed as this error. */
  error?: { code: ProviderErrorCode; message?: string | undefined } | undefined;
}
