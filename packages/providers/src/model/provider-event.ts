import type { ProviderErrorJSON } from '../errors/provider-error.ts';
import type { FinishReason } from './finish-reason.ts';
import type { TokenUsage } from './token-usage.ts';

interface EventBase {
  provider: string;
  model: string;
}

/**
 * What a model reports while it works, for logs and the decision log.
 * Events are redacted before delivery: no API key ever appears in one.
 */
export type ProviderEvent =
  | (EventBase & { type: 'call-start'; stream: boolean })
  | (EventBase & { type: 'retry'; attempt: number; delayMs: number; error: ProviderErrorJSON })
  | (EventBase & {
      type: 'call-finish';
      attempts: number;
      latencyMs: number;
      usage: TokenUsage;
      finishReason: FinishReason;
      costUsd?: number | undefined;
    })
  | (EventBase & { type: 'call-error'; attempts: number; latencyMs: number; error: ProviderErrorJSON });

/** Receives {@link ProviderEvent}s; a listener that throws is ignored, it cannot break a call. */
export type ProviderEventListener = (event: ProviderEvent) => void;
