/** Status and headers of the last HTTP response an SDK received. */
export interface TappedResponse {
  status: number;
  headers: Headers;
}

/** A fetch wrapper handed to an SDK for one attempt. */
export interface HttpTap {
  fetch: typeof globalThis.fetch;
  readonly lastResponse: TappedResponse | undefined;
}

/**
 * Wraps fetch for one attempt. It records the last response's status and
 * headers, because not every SDK exposes `retry-after` on its errors (the
 * `ollama` and `@google/genai` ones do not), and it ties every request to the
 * attempt's signal, because not every SDK accepts a signal per call.
 */
export function createHttpTap(baseFetch: typeof globalThis.fetch, signal: AbortSignal): HttpTap {
  let lastResponse: TappedResponse | undefined;
  const tapped = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
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
  };
}
