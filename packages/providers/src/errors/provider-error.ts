import { RETRYABLE_CODES, type ProviderErrorCode } from './provider-error-code.ts';

/**
 * Marker shared by every copy of this package that may be loaded side by side
 * (two versions in one `node_modules`), so `isProviderError` does not depend on
 * `instanceof` of one particular class object. Same idea as the AI SDK's
 * `AISDKError.isInstance`.
 */
const MARKER: unique symbol = Symbol.for('askloop.providers.error');

/** Options for constructing a {@link ProviderError}. */
export interface ProviderErrorOptions {
  code: ProviderErrorCode;
  /** Human-readable detail; it must already be redacted. */
  message: string;
  provider?: string | undefined;
  model?: string | undefined;
  /** HTTP status of the failed response, when there was one. */
  status?: number | undefined;
  /** Whether another attempt could succeed; defaults from the code. */
  retryable?: boolean | undefined;
  /** Server-requested wait before retrying (`retry-after` and friends). */
  retryAfterMs?: number | undefined;
  /** Number of attempts made before giving up. */
  attempts?: number | undefined;
  /** A redacted, JSON-safe description of the underlying failure. */
  cause?: ProviderErrorCause | undefined;
}

/** The redacted summary of the error thrown by an SDK or by fetch. */
export interface ProviderErrorCause {
  name: string;
  message: string;
}

/** The JSON form of a {@link ProviderError}, as written to logs and events. */
export interface ProviderErrorJSON {
  name: 'ProviderError';
  code: ProviderErrorCode;
  message: string;
  provider?: string | undefined;
  model?: string | undefined;
  status?: number | undefined;
  retryable: boolean;
  retryAfterMs?: number | undefined;
  attempts?: number | undefined;
  cause?: ProviderErrorCause | undefined;
}

/**
 * The one error class of `@askloop/providers`. Every failure that leaves the
 * package is a `ProviderError` with a stable `code` and the provider and model
 * named, and its text never contains an API key (see `createRedactor`).
 */
export class ProviderError extends Error {
  readonly [MARKER] = true;
  override readonly name = 'ProviderError';
  readonly code: ProviderErrorCode;
  readonly provider: string | undefined;
  readonly model: string | undefined;
  readonly status: number | undefined;
  /**
   * Whether retrying the same call may succeed. Set to false by the model once
   * streamed text has reached the caller: a retry would deliver that text twice.
   */
  retryable: boolean;
  readonly retryAfterMs: number | undefined;
  attempts: number | undefined;
  /** Redacted; the SDK's own error object is deliberately not kept, it may hold request headers. */
  override readonly cause: ProviderErrorCause | undefined;

  constructor(options: ProviderErrorOptions) {
    super(formatMessage(options));
    this.code = options.code;
    this.provider = options.provider;
    this.model = options.model;
    this.status = options.status;
    this.retryable = options.retryable ?? RETRYABLE_CODES.has(options.code);
    this.retryAfterMs = options.retryAfterMs;
    this.attempts = options.attempts;
    this.cause = options.cause;
  }

  /** True for a `ProviderError` from any loaded copy of this package. */
  static isInstance(value: unknown): value is ProviderError {
    return isProviderError(value);
  }

  /** The message without the `[provider:model] CODE:` prefix. */
  get detail(): string {
    const index = this.message.indexOf(`${this.code}: `);
    return index < 0 ? this.message : this.message.slice(index + this.code.length + 2);
  }

  /** A plain, JSON-safe copy for transcripts and events. */
  toJSON(): ProviderErrorJSON {
    return {
      name: 'ProviderError',
      code: this.code,
      message: this.message,
      provider: this.provider,
      model: this.model,
      status: this.status,
      retryable: this.retryable,
      retryAfterMs: this.retryAfterMs,
      attempts: this.attempts,
      // Its two fields as plain data: an Error given as the cause (its fields are not its own enumerable ones) wrote `{}`.
      cause: this.cause === undefined || this.cause === null ? undefined : { name: String(this.cause.name), message: String(this.cause.message) },
    };
  }
}

/** True when `value` is a {@link ProviderError}, even one from another copy of the package. */
export function isProviderError(value: unknown): value is ProviderError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
}

function formatMessage(options: ProviderErrorOptions): string {
  const where = options.provider === undefined
    ? ''
    : `[${options.provider}${options.model === undefined ? '' : `:${options.model}`}] `;
  return `${where}${options.code}: ${options.message}`;
}
