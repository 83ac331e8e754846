import type { TappedResponse } from '../call/http-tap.ts';
import { parseRetryAfter, parseRetryDelayFromBody, type HeadersLike } from '../retry/parse-retry-after.ts';
import { isProviderError, ProviderError } from './provider-error.ts';
import type { ProviderErrorCode } from './provider-error-code.ts';
import { codeForErrorNames, errorNamesOf } from './error-type-code.ts';
import { codeForStatus } from './status-code.ts';
import { cutAnswerText } from './cut-answer-text.ts';
import { unreachableMessage } from './unreachable-message.ts';

/** What is known about a failed attempt besides the thrown value. */
export interface FailureContext {
  provider: string;
  model: string;
  callerAborted: boolean;
  /** The caller signal's `reason`, when it aborted. */
  callerReason?: unknown;
  timedOut: boolean;
  /** The attempt's timeout (ms), named by a `PROVIDER_TIMEOUT` message. */
  timeoutMs?: number | undefined;
  lastResponse?: TappedResponse | undefined;
  /** Scheme, host and port of the attempt's last request, if it made one (`HttpTap.lastOrigin`). */
  lastOrigin?: string | undefined;
}

/** The most of a thrown message kept as the cause (an SDK's may hold a whole error page): more than a message quotes. */
const CAUSE_LIMIT = 8_000;

/**
 * Turns whatever an SDK, fetch or a plugin threw into a {@link ProviderError}
 * with a code. It does not redact: `createLanguageModel` scrubs every error at
 * the one place errors leave a model call (`redactProviderError`), so no path
 * through here can skip it.
 * SDK errors are read by shape, not by class, so that one function serves the
 * `openai`, `@anthropic-ai/sdk`, `@google/genai`, `ollama` and AI SDK errors.
 */
export function toProviderError(thrown: unknown, context: FailureContext): ProviderError {
  const base = { provider: context.provider, model: context.model };
  const said = describe(thrown);
  // Kept bounded as the cause; the message quotes less of it (below).
  const cause = { name: said.name, message: cutAnswerText(said.message, CAUSE_LIMIT) };
  if (context.callerAborted) {
    return callerAbortError(base, context.callerReason, cause);
  }
  if (context.timedOut) {
    const limit = context.timeoutMs === undefined ? 'the timeout' : `the timeout of ${context.timeoutMs} ms`;
    return new ProviderError({ ...base, code: 'PROVIDER_TIMEOUT', message: `no complete response before ${limit}${timeoutHint(base.provider)}`, cause });
  }
  if (isProviderError(thrown)) {
    // A plugin may name another provider (a router, a fallback): keep what it set.
    const { name: _name, message: _message, ...json } = thrown.toJSON();
    return new ProviderError({ ...json, provider: thrown.provider ?? base.provider, model: thrown.model ?? base.model, message: thrown.detail });
  }
  const fields = (typeof thrown === 'object' && thrown !== null ? thrown : {}) as Record<string, unknown>;
  const status = firstNumber(fields['status'], fields['statusCode'], fields['status_code'])
    ?? (context.lastResponse !== undefined && context.lastResponse.status >= 400 ? context.lastResponse.status : undefined);
  const headers = (fields['headers'] ?? fields['responseHeaders'] ?? context.lastResponse?.headers) as HeadersLike;
  if (status !== undefined) {
    const code = isKeyRejection(status, said.message) ? 'PROVIDER_AUTH' : codeForStatus(status);
    const retryAfterMs = parseRetryAfter(headers) ?? parseRetryDelayFromBody(said.message);
    // SDKs often start their message with the status already ("401 Incorrect API key"): said once.
    const detail = cutAnswerText(said.message.startsWith(`${status} `) ? said.message.slice(String(status).length + 1) : said.message);
    return new ProviderError({ ...base, code, status, retryAfterMs, message: `HTTP ${status}: ${detail}${code === 'PROVIDER_AUTH' ? AUTH_HINT : ''}`, cause });
  }
  const answered = context.lastResponse !== undefined && context.lastResponse.status < 300;
  const code = codeWithoutStatus(thrown, fields, answered);
  // "Connection error." or "fetch failed" alone does not say where: the request's host and port, why, and what to check do.
  const told = cutAnswerText(withInnerCause(thrown, said.message));
  const message = code === 'PROVIDER_NETWORK' && context.lastOrigin !== undefined && context.lastResponse === undefined
    ? unreachableMessage(context.lastOrigin, thrown, told)
    : told;
  return new ProviderError({ ...base, code, message, cause });
}

/**
 * The names `askloop.config.yaml`'s `providers:` and `builtinPlugin({ providerSettings })` take: this package's four
 * providers under their own names. No other provider (an OpenAI-compatible one named `vllm`, a plugin's `acme`) can
 * be set there, so its hint must not send the user there.
 */
const BUILTIN_NAMES: ReadonlySet<string> = new Set(['openai', 'anthropic', 'google', 'ollama']);

/**
 * Where `timeoutMs` is set, for a slow model: this package cannot tell a
 * built-in provider from a plugin's of the same name, nor the askloop
 * command from a program, so for a built-in name every place is named once;
 * any other name is a provider made elsewhere, set where it is made.
 */
function timeoutHint(provider: string): string {
  if (!BUILTIN_NAMES.has(provider)) return ` (raise timeoutMs for a slow model where provider '${provider}' is made: its plugin's options for a plugin's, else the settings it is created with)`;
  return ` (raise timeoutMs for a slow model: providers.${provider}.timeoutMs in askloop.config.yaml or builtinPlugin({ providerSettings }) for a built-in provider, the plugin's options for a plugin's)`;
}

/** What a refused key's message adds: where the key comes from, and the other usual cause. */
const AUTH_HINT = " (the server refused the key: check the key the provider sends, its apiKey setting or the environment variable it reads, and that its base URL is the server that key is for)";

/**
 * `message` with the inner cause's when it says what the outer one does not:
 * a stream cut mid-reply is Node's bare `terminated`, whose cause says the
 * connection closed before the response ended.
 */
function withInnerCause(thrown: unknown, message: string): string {
  const inner = thrown instanceof Error && thrown.cause instanceof Error && thrown.cause.message !== '' ? thrown.cause.message : undefined;
  // Node's body reader says `terminated` whether the server closed the connection or reset it (its cause: `aborted`).
  if (message === 'terminated') return `terminated: ${CUT}${inner === undefined || inner === CUT ? '' : ` (${inner})`}`;
  return inner === undefined || message.includes(inner) ? message : `${message}: ${inner}`;
}

/** What `terminated` means: the body's end never came. */
const CUT = 'the connection closed before the response ended';

/**
 * A caller abort is `PROVIDER_ABORTED`, except that a caller deadline
 * (`AbortSignal.timeout()`, reason `TimeoutError`) is reported as the timeout it is.
 */
export function callerAbortError(
  base: { provider: string; model: string },
  reason: unknown,
  cause?: { name: string; message: string },
): ProviderError {
  if (reason instanceof Error && reason.name === 'TimeoutError') {
    return new ProviderError({ ...base, code: 'PROVIDER_TIMEOUT', message: "the caller's deadline passed", cause });
  }
  return new ProviderError({ ...base, code: 'PROVIDER_ABORTED', message: 'the call was aborted by the caller', cause });
}

/** Gemini rejects a bad key with HTTP 400 and reason `API_KEY_INVALID`, not 401. */
function isKeyRejection(status: number, message: string): boolean {
  return status === 400 && /API_KEY_INVALID|API key not valid/i.test(message);
}

function codeWithoutStatus(thrown: unknown, fields: Record<string, unknown>, answered: boolean): ProviderErrorCode {
  const name = String(fields['name'] ?? '');
  // A stream's error event the SDK threw (Anthropic), or an error part an AI SDK provider threw: coded by its type or
  // code names as every provider's are.
  const named = codeForErrorNames(errorNames(fields));
  if (named !== undefined) return named;
  // AI SDK providers: a missing key or setting, an unknown model.
  if (/LoadAPIKey|LoadSetting/i.test(name)) return 'PROVIDER_CONFIG';
  if (/NoSuchModel/i.test(name)) return 'PROVIDER_MODEL_NOT_FOUND';
  if (thrown instanceof SyntaxError || /JSON|parse/i.test(name)) return 'PROVIDER_BAD_RESPONSE';
  if (/Connection|Network|Fetch|Socket/i.test(name) || isNetworkFailure(thrown)) return 'PROVIDER_NETWORK';
  // The server answered 2xx, yet the SDK tripped over the body (e.g. `output is not iterable`).
  if (answered && thrown instanceof TypeError) return 'PROVIDER_BAD_RESPONSE';
  return 'PROVIDER_UNKNOWN';
}

/**
 * The type and code names an error carries, innermost first: Anthropic's SDK throws stream errors with the body
 * `{ type: 'error', error: { type: 'overloaded_error' } }` as `error`; OpenAI names an error by `type` and `code`
 * (`{ type: 'tokens', code: 'rate_limit_exceeded' }`); an AI SDK provider may throw the error part itself.
 */
function errorNames(fields: Record<string, unknown>): string[] {
  const inner = fields['error'];
  const nested = typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>)['error'] : undefined;
  return [...errorNamesOf(nested), ...errorNamesOf(inner), ...errorNamesOf(fields)];
}

function isNetworkFailure(thrown: unknown): boolean {
  let current: unknown = thrown;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const record = current as Record<string, unknown>;
    const code = record['code'];
    if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code)) return true;
    if (record instanceof TypeError && /fetch failed|network/i.test(String(record['message']))) return true;
    current = record['cause'];
  }
  return false;
}

function firstNumber(...values: unknown[]): number | undefined {
  return values.find((value): value is number => typeof value === 'number' && Number.isInteger(value));
}

function describe(thrown: unknown): { name: string; message: string } {
  if (thrown instanceof Error) {
    return { name: String(thrown.name), message: String(thrown.message || safeString(thrown)) };
  }
  return { name: typeof thrown, message: safeString(thrown) };
}



function safeString(value: unknown): string {
  try {
    return typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  } catch {
    try {
      return String(value);
    } catch {
      return '[a value that cannot be printed]';
    }
  }
}
