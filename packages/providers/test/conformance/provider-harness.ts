import type { LanguageModel } from '../../src/model/language-model.ts';
import type { ModelPrices } from '../../src/model/model-prices.ts';
import type { ProviderEventListener } from '../../src/model/provider-event.ts';
import type { FinishReason } from '../../src/model/finish-reason.ts';
import type { TokenUsage } from '../../src/model/token-usage.ts';
import type { RetrySettings } from '../../src/retry/retry-settings.ts';
import type { RecordedRequest, ScriptedResponse } from '../support/test-server.ts';

/** How the conformance suite drives one provider against the loopback server. */
export interface ProviderHarness {
  /** Provider name as it appears in errors and results. */
  provider: string;
  modelId: string;
  apiKey: string;
  model(options: {
    baseURL: string;
    retry: RetrySettings;
    timeoutMs?: number;
    prices?: ModelPrices;
    onEvent?: ProviderEventListener;
  }): LanguageModel;
  /** Path the provider must call (plain and streamed). */
  path: RegExp;
  streamPath: RegExp;
  /** Where the provider sent the key, read from a recorded request. */
  sentKey(request: RecordedRequest): string | undefined;
  success: ScriptedResponse;
  expected: { text: string; usage: TokenUsage; finishReason: FinishReason };
  stream: ScriptedResponse;
  expectedStream: { text: string; usage: TokenUsage };
  /** An error answer in the provider's own format, carrying `message`. */
  error(status: number, message: string, headers?: Record<string, string>): ScriptedResponse;
  /** The recorded auth failure (401, or Gemini's 400 API_KEY_INVALID). */
  authFailure: ScriptedResponse;
  rateLimited: ScriptedResponse;
  serverError: ScriptedResponse;
  /** A 200 whose JSON lacks the reply. */
  wrongShape: ScriptedResponse;
}
