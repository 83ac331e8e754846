import { isProviderError, ProviderError } from '../errors/provider-error.ts';
import { callerAbortError, toProviderError } from '../errors/to-provider-error.ts';
import type { GenerateOptions, GenerateResult, LanguageModel } from '../model/language-model.ts';
import type { ModelPrices } from '../model/model-prices.ts';
import type { ProviderEvent, ProviderEventListener } from '../model/provider-event.ts';
import type { Redactor } from '../redact/create-redactor.ts';
import { redactorCache } from '../redact/redactor-cache.ts';
import { redactProviderError } from '../redact/redact-provider-error.ts';
import { setRedactedOnRead } from '../redact/redacted-on-read.ts';
import { createStreamRedactor } from '../redact/stream-redactor.ts';
import { backoffDelay } from '../retry/backoff-delay.ts';
import { resolveRetrySettings } from '../retry/resolve-retry-settings.ts';
import type { RetrySettings } from '../retry/retry-settings.ts';
import { runWithAttemptFetch } from './attempt-fetch.ts';
import { usageOrEstimate, USAGE_ESTIMATED } from './estimate-usage.ts';
import { createAttemptSignal } from './attempt-signal.ts';
import { LONGEST_TIMER_MS } from './longest-timer.ts';
import { followSignal } from './follow-signal.ts';
import { attemptResultProblem } from './attempt-result-check.ts';
import { callSettingsProblem, describeKind, describeSetting, describeThrown, modelPricesProblem, providerNameProblem } from './provider-definition-check.ts';
import { computeCost } from './compute-cost.ts';
import { generateOptionsProblem } from './generate-options-check.ts';
import { createHttpTap } from './http-tap.ts';
import { nodeHttpFetch } from './node-http-fetch.ts';
import type { ModelAttempt } from './model-attempt.ts';

/** Default per-attempt timeout: generous, since long replies from slow models are normal. */
export const DEFAULT_TIMEOUT_MS = 120_000;

const NO_SECRETS: readonly string[] = [];
/** The usage of a result that reported none: estimated from the texts. */
const NO_USAGE = { inputTokens: 0, outputTokens: 0 } as const;

/** Everything `createLanguageModel` needs to wrap a provider's wire code. */
export interface LanguageModelSpec {
  provider: string;
  modelId: string;
  attempt: ModelAttempt;
  /** Secrets to scrub from errors, results and events (API keys). */
  secrets?: () => readonly (string | undefined)[];
  /** Awaited before a call's first attempt, outside its timeout (see `ProviderDefinition.load`). */
  load?: (() => Promise<unknown>) | undefined;
  retry?: RetrySettings | undefined;
  timeoutMs?: number | undefined;
  prices?: ModelPrices | undefined;
  onEvent?: ProviderEventListener | undefined;
  /** The transport of every attempt (default `nodeHttpFetch`). */
  fetch?: typeof globalThis.fetch | undefined;
  /** Clock for latency; injectable for tests. */
  now?: (() => number) | undefined;
}

/**
 * Wraps one request function into a {@link LanguageModel}: the retry loop
 * (429/5xx/network, honouring `retry-after`, never after a caller abort or once
 * streamed text was delivered), the per-attempt timeout, typed errors,
 * redaction, latency, cost and events. Every provider goes through here, so
 * they all behave alike.
 *
 * Redaction happens here, at the one boundary where results, errors, events
 * and streamed text leave the call, whatever the plugin's wire code threw or
 * returned — never inside a provider, so no plugin can skip it.
 */
export function createLanguageModel(spec: LanguageModelSpec): LanguageModel {
  // The name is checked as `defineProvider` and the controller's plugins check theirs: one with a `:` or white space
  // could never be reached by a `name:model` id, and an empty or non-string one names nothing in errors and results.
  const settingsProblem = providerNameProblem(spec.provider)
    ?? callSettingsProblem(spec)
    ?? (spec.prices === undefined ? undefined : modelPricesProblem(spec.prices, 'prices'))
    ?? (typeof spec.attempt !== 'function' ? `attempt must be the function performing one request, (request) => result, got ${describeSetting(spec.attempt)}` : undefined)
    ?? (spec.secrets !== undefined && typeof spec.secrets !== 'function' ? `secrets must be a function () => [key, …], called at each request, got ${describeKind(spec.secrets)}` : undefined)
    ?? (spec.load !== undefined && typeof spec.load !== 'function' ? `load must be a function () => promise, awaited before a call's first attempt, got ${describeKind(spec.load)}` : undefined);
  if (settingsProblem !== undefined) {
    // Only a string goes into `provider`: the field is a name, and a bad one is shown in the message instead.
    const provider = typeof spec.provider === 'string' ? { provider: spec.provider } : {};
    throw new ProviderError({ code: 'PROVIDER_CONFIG', ...provider, model: spec.modelId, retryable: false, message: settingsProblem });
  }
  const now = spec.now ?? (() => performance.now());
  const base = { provider: spec.provider, model: spec.modelId };
  const redactorFor = redactorCache();
  /** Whether `spec.load` has resolved (the SDK is there). */
  let loaded = false;
  /** The keys to scrub, read at each call; a `secrets()` that throws (a vault out of reach) fails the call as `PROVIDER_CONFIG`. */
  const readSecrets = (): readonly (string | undefined)[] => {
    if (spec.secrets === undefined) return NO_SECRETS;
    let secrets: unknown;
    try {
      secrets = spec.secrets();
    } catch (thrown) {
      // Described by its kind only: what failed to read the keys often quotes one (`JSON.parse` on a malformed KEYS
      // variable prints its first characters), and no key is known to hide it with.
      throw new ProviderError({ ...base, code: 'PROVIDER_CONFIG', retryable: false, message: `the provider's secrets() threw ${describeThrown(thrown)}, so no request was sent; its message is not shown, since it may quote a key: call secrets() yourself to read it` });
    }
    // Not described by its value: what `secrets()` returns is the key (`() => apiKey` for `() => [apiKey]`).
    if (!Array.isArray(secrets)) throw new ProviderError({ ...base, code: 'PROVIDER_CONFIG', retryable: false, message: `the provider's secrets() returned ${describeKind(secrets)}, not a list of keys (() => [key], not () => key); no request was sent` });
    return secrets as readonly (string | undefined)[];
  };
  const generate = async (options: GenerateOptions): Promise<GenerateResult> => {
    const redactor = redactorFor(readSecrets());
    let result: GenerateResult;
    try {
      result = await call(options, redactor);
    } catch (thrown) {
      const error = isProviderError(thrown)
        ? thrown
        : toProviderError(thrown, { ...base, callerAborted: false, timedOut: false });
      throw redactProviderError(error, redactor);
    }
    const { raw, ...rest } = result;
    const redacted = {
      ...rest,
      text: redactor.secretsOnly(result.text),
      rawFinishReason: result.rawFinishReason === undefined ? undefined : redactor.text(result.rawFinishReason),
      warnings: redactor.value(result.warnings),
    } as GenerateResult;
    // Scrubbed when first read: the raw chunks of a long stream cost more to copy than the rest of the call.
    setRedactedOnRead(redacted, 'raw', raw, redactor);
    return redacted;
  };

  /** The retry loop; what it returns or throws is scrubbed by `generate`. */
  const call = async (options: GenerateOptions, redactor: Redactor): Promise<GenerateResult> => {
    const retry = resolveRetrySettings(spec.retry);
    // Checked before anything is sent: a misspelt option, a prompt that is no text or a `timeoutMs` of `-1`, `NaN` or
    // `'50'` (which would mean no timeout at all) was taken silently.
    const optionsProblem = generateOptionsProblem(options);
    if (optionsProblem !== undefined) throw new ProviderError({ ...base, code: 'PROVIDER_CONFIG', retryable: false, message: `the call's ${optionsProblem}` });
    const timeoutMs = options.timeoutMs ?? spec.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const emit = eventEmitter(redactor, spec.onEvent, options.onEvent);
    const started = now();
    let delivered = false;
    const deliver = (text: string): void => {
      if (text === '') return;
      delivered = true;
      options.onText?.(text);
    };
    emit({ ...base, type: 'call-start', stream: options.onText !== undefined });
    // Once loaded, never again: a later call costs no timer for it.
    if (spec.load !== undefined && !loaded) loaded = await loadBeforeAttempts(spec.load, options.signal, timeoutMs);
    for (let attempt = 1; ; attempt++) {
      const attemptSignal = createAttemptSignal(options.signal, timeoutMs);
      const tap = createHttpTap(spec.fetch ?? nodeHttpFetch, attemptSignal.signal);
      // Per attempt: text held back by a failed attempt is dropped with it.
      const stream = createStreamRedactor(redactor);
      // Text an attempt streams after it ended (an attempt that ignored its signal and goes on, or one that resolved
      // its result and streams on) reaches no one.
      let resolved = false;
      /** What the attempt first gave `onText` that is no string: the plugin's bug, reported when the attempt ends. */
      let badDelta: string | undefined;
      const onText = options.onText === undefined ? undefined : (delta: string): void => {
        // Not streamed: `onText(undefined)` reached the caller as the text "undefined", and counted as streamed text
        // (so a failure after it was said to be "after part of the reply had streamed"). Not thrown either: a plugin
        // calling onText from an SDK's event listener would crash the process with it.
        if (typeof delta !== 'string') {
          if (!resolved) badDelta ??= describeKind(delta); // by kind: it may be the reply in another shape (a list of parts)
          return;
        }
        if (!resolved && !attemptSignal.signal.aborted) deliver(stream.push(delta));
      };
      try {
        if (options.signal?.aborted) throw options.signal.reason;
        const request = {
          system: options.system,
          prompt: options.prompt,
          messages: options.messages ?? [],
          settings: options.settings ?? {},
          signal: attemptSignal.signal,
          onText,
          fetch: tap.fetch,
          attempt,
        };
        // A provider's shared SDK client reaches this attempt's tap through the async context (attemptFetch).
        // Raced with its signal: an attempt that ignores it (a hand-made provider awaiting something that never
        // settles) still ends at the timeout or the caller's abort, as `timeoutMs` promises, instead of hanging the call.
        // Promise.resolve: a plugin in JavaScript may return its result without a promise.
        const result = await endedBySignal(Promise.resolve(runWithAttemptFetch(tap.fetch, () => spec.attempt(request))), attemptSignal.signal);
        // A plugin's wire code may resolve anything: what is not a result fails the call, naming what was wrong.
        const resultProblem = attemptResultProblem(result);
        if (resultProblem !== undefined) throw new ProviderError({ code: 'PROVIDER_BAD_RESPONSE', message: resultProblem });
        resolved = true;
        if (onText !== undefined) deliver(stream.flush());
        const latencyMs = Math.max(0, now() - started);
        // What was sent is gathered only for a reply without usage (rare), not on every call.
        const sent = () => [options.system ?? '', options.prompt, ...(options.messages ?? []).map((message) => message.content)];
        // No usage at all is estimated, as usage reported as zero is.
        const { usage, estimated } = usageOrEstimate(result.usage ?? NO_USAGE, sent, result.text);
        const costUsd = computeCost(usage, spec.prices);
        const final: GenerateResult = {
          ...base,
          text: result.text,
          usage,
          finishReason: result.finishReason,
          rawFinishReason: result.rawFinishReason,
          latencyMs,
          attempts: attempt,
          raw: result.raw,
          costUsd,
          // A bad delta of an attempt that returned a valid result is dropped and said, not failed: the result's text is
          // the reply (what a caller that does not stream gets too); the streamed text only showed it.
          warnings: [...(result.warnings ?? []), ...(estimated ? [USAGE_ESTIMATED] : []), ...(badDelta === undefined ? [] : [badDeltaWarning(badDelta)])],
        };
        emit({ ...base, type: 'call-finish', attempts: attempt, latencyMs, usage, finishReason: result.finishReason, costUsd });
        return final;
      } catch (thrown) {
        attemptSignal.dispose(); // before any retry wait: this attempt's timer must not run on
        const classified = toProviderError(thrown, {
          ...base,
          callerAborted: options.signal?.aborted === true,
          callerReason: options.signal?.reason,
          timedOut: attemptSignal.timedOut,
          timeoutMs,
          lastResponse: tap.lastResponse,
          lastOrigin: tap.lastOrigin,
        });
        // A bad delta is the failure to fix, whatever the attempt then threw (retrying would not mend it); not when
        // the caller aborted, which nothing retries or reports further.
        const error = badDelta !== undefined && classified.code !== 'PROVIDER_ABORTED' && !classified.detail.startsWith(BAD_DELTA)
          ? badDeltaError(base, badDelta, classified.detail)
          : classified;
        // Classified first (a timeout, the caller's abort); then whatever still reads this attempt's response stops.
        attemptSignal.abandon();
        // Text already streamed to the caller cannot be taken back: say so, so no caller retries it either.
        if (delivered) {
          // Not said of the caller's own abort, which nothing retries.
          if (error.code !== 'PROVIDER_ABORTED') error.message += ' (after part of the reply had streamed, so not retried)';
          error.retryable = false;
        }
        const retryAfter = error.retryAfterMs;
        const canRetry = error.retryable && attempt <= retry.maxRetries && !delivered
          && (retryAfter === undefined || retryAfter <= retry.maxRetryAfterMs);
        if (!canRetry) {
          error.attempts = attempt;
          // A wait longer than the caller allows is why a retryable failure was not retried: say so, with both figures.
          if (error.retryable && retryAfter !== undefined && retryAfter > retry.maxRetryAfterMs && attempt <= retry.maxRetries && !delivered) {
            error.message += ` (not retried: the server asked to wait ${formatSeconds(retryAfter)}, more than retry.maxRetryAfterMs allows, ${formatSeconds(retry.maxRetryAfterMs)})`;
          }
          emit({ ...base, type: 'call-error', attempts: attempt, latencyMs: Math.max(0, now() - started), error: error.toJSON() });
          throw error;
        }
        // A retry-after of 0 or a date in the past must not mean an instant retry: never wait less than the backoff.
        const delayMs = Math.max(retryAfter ?? 0, backoffDelay(attempt, retry));
        emit({ ...base, type: 'retry', attempt, delayMs, error: error.toJSON() });
        try {
          await sleepOrAbort(retry.sleep, delayMs, options.signal, base, attempt);
        } catch (aborted) {
          emit({ ...base, type: 'call-error', attempts: attempt, latencyMs: Math.max(0, now() - started), error: (aborted as ProviderError).toJSON() });
          throw aborted;
        }
      } finally {
        attemptSignal.dispose();
      }
    }
  };
  /** The keys for `LanguageModel.secrets`: none when `secrets()` throws or returns no list (the call itself reports that). */
  const secrets = (): readonly (string | undefined)[] => {
    try {
      return readSecrets();
    } catch {
      return NO_SECRETS;
    }
  };
  return { provider: spec.provider, modelId: spec.modelId, prices: spec.prices, generate, secrets };
}

async function sleepOrAbort(
  sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>,
  delayMs: number,
  signal: AbortSignal | undefined,
  base: { provider: string; model: string },
  attempts: number,
): Promise<void> {
  try {
    await sleep(delayMs, signal);
  } catch {
    // Only an abort interrupts the wait.
  }
  if (signal?.aborted) {
    const error = callerAbortError(base, signal.reason);
    error.attempts = attempts;
    throw error;
  }
}

function eventEmitter(redactor: Redactor, ...listeners: (ProviderEventListener | undefined)[]): (event: ProviderEvent) => void {
  // Nobody listens: skip the redacted copy of every event.
  if (listeners.every((listener) => listener === undefined)) return () => {};
  return (event) => {
    const safe = redactor.value(event);
    for (const listener of listeners) {
      try {
        listener?.(safe);
      } catch {
        // An observer must not be able to break a model call.
      }
    }
  };
}

/**
 * `work`, or a rejection with `signal`'s reason as soon as it aborts, whichever
 * comes first. The work left running is not waited for; what it later throws
 * is dropped (it would be an unhandled rejection).
 */
/** How long a call waits for its provider's `load` at least, before going on to the attempt (an SDK takes well under a second). */
const LOAD_WAIT_FLOOR_MS = 30_000;

/**
 * Awaits the provider's `load` (its SDK) before the first attempt's timer
 * starts. A failure is left to the attempt, which loads again and reports it
 * as it always has; the caller's abort ends the wait, and the attempt then
 * reports the abort. A load that never settles (a plugin's) is waited for at
 * most `timeoutMs` or 30 s, whichever is longer: the attempt that follows
 * awaits it within its own timeout, so `timeoutMs` still ends the call.
 * True once it has loaded.
 */
async function loadBeforeAttempts(load: () => Promise<unknown>, signal: AbortSignal | undefined, timeoutMs: number): Promise<boolean> {
  const waitMs = Math.min(LONGEST_TIMER_MS, Math.max(LOAD_WAIT_FLOOR_MS, Number.isFinite(timeoutMs) ? timeoutMs : 0));
  const waited = new AbortController();
  const unfollow = followSignal(signal, waited);
  const timer = setTimeout(() => waited.abort(), waitMs);
  try {
    await endedBySignal(Promise.resolve(load()), waited.signal);
    return true;
  } catch {
    // Reported by the attempt (see above).
    return false;
  } finally {
    clearTimeout(timer);
    unfollow();
  }
}

function endedBySignal<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.then(undefined, () => {});
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      work.then(undefined, () => {});
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

/** The start of the message for an `onText` given no string. */
const BAD_DELTA = 'request.onText must be given text (each delta a string)';

/** `PROVIDER_BAD_RESPONSE` for an attempt that gave `onText` what is no text (`got`), and what it then failed with, if it did. */
function badDeltaError(base: { provider: string; model: string }, got: string, thenFailed?: string): ProviderError {
  const after = thenFailed === undefined ? '' : `; the attempt then failed: ${thenFailed}`;
  return new ProviderError({ ...base, code: 'PROVIDER_BAD_RESPONSE', retryable: false, message: `${BAD_DELTA}, got ${got}; fix the provider's attempt${after}` });
}

/** The warning of a call whose attempt gave `onText` what is no text (`got`), dropped, and then returned a valid result. */
function badDeltaWarning(got: string): string {
  return `${BAD_DELTA}, got ${got}; it was dropped, and the streamed text may lack a part of the reply (the result's text is whole); fix the provider's attempt`;
}

/** Milliseconds as seconds for a message (`3600 s`, `1.5 s`). */
function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
