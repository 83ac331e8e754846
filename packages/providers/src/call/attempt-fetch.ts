import { AsyncLocalStorage } from 'node:async_hooks';

/** The fetch of the attempt running in the current async context. */
const current = new AsyncLocalStorage<typeof globalThis.fetch>();

/**
 * Runs `attempt` with `fetch` as the current attempt's fetch, so that
 * {@link attemptFetch} inside it (and inside every promise it starts) reaches
 * this attempt's tap.
 */
export function runWithAttemptFetch<T>(fetch: typeof globalThis.fetch, attempt: () => T): T {
  return current.run(fetch, attempt);
}

/**
 * The fetch handed to an SDK client shared by many concurrent attempts: each
 * request it makes goes through the fetch of the attempt that made it (the
 * tap tied to that attempt's signal, recording that attempt's last response).
 * An SDK takes its `fetch` when the client is built; routing through the async
 * context is what lets one client serve every attempt instead of one client
 * being built per request. Custom providers do the same: build the SDK client
 * once with `fetch: attemptFetch` and call it from the attempt. Called outside
 * an attempt it rejects, rather than send a request no timeout or abort covers.
 */
export const attemptFetch: typeof globalThis.fetch = (input, init) => {
  const fetch = current.getStore();
  // Never fall back to a bare fetch: it would escape the attempt's timeout and abort.
  if (fetch === undefined) return Promise.reject(new Error('an SDK request was made outside a model attempt'));
  return fetch(input, init);
};
