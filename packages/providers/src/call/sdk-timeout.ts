/**
 * Timeout handed to the official SDKs. Our own per-attempt timer
 * (`createAttemptSignal`) is the one that counts; the SDK's must never fire
 * first, or timeouts would be reported and retried in the SDK's way.
 */
export const SDK_TIMEOUT_MS = 24 * 60 * 60 * 1000;
