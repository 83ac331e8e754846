/** Status and headers of the last HTTP response an SDK received. */
export interface TappedResponse {
  status: number;
  headers: Headers;
}

/** A fetch wrapper handed to an SDK for one attempt. */
export interface HttpTap {
  fetch: typeof globalThis.fetch;
  readonly lastResponse: TappedResponse | undefined;
  /**
   * Where the last request went: scheme, host and port only (never a path or
   * query, which may carry a key), so a failure to connect can say where.
   */
  readonly lastOrigin: string | undefined;
}

/**
 * Wraps fetch for one attempt. It records the last response's status and
 * headers, because not every SDK exposes `retry-after` on its errors (the
 * `ollama` and `@google/genai` ones do not), and it ties every request to the
 * attempt's signal, because not every SDK accepts a signal per call.
 */
export function createHttpTap(baseFetch: typeof globalThis.fetch, signal: AbortSignal): HttpTap {
  let lastResponse: TappedResponse | undefined;
  let lastOrigin: string | undefined;
  const tapped = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    lastOrigin = originOf(input);
    const signals = init?.signal ? [init.signal, signal] : [signal];
    const response = await baseFetch(input, { ...init, signal: AbortSignal.any(signals) });
    lastResponse = { status: response.status, headers: response.headers };
    return response;
  };
  return {
    fetch: tapped as typeof globalThis.fetch,
    get lastResponse() {
      return lastResponse;
    },
    get lastOrigin() {
      return lastOrigin;
    },
  };
}

/** `http://127.0.0.1:11434` of a request's URL; undefined when it is not one. */
function originOf(input: string | URL | Request): string | undefined {
  try {
    return new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url).origin;
  } catch {
    return undefined;
  }
}
