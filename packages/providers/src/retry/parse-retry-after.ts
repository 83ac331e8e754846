/** Response headers in any of the shapes SDKs expose them. */
export type HeadersLike = Headers | Record<string, string | string[] | undefined> | undefined | null;

/** Reads one header case-insensitively from a `Headers` object or a plain record. */
export function readHeader(headers: HeadersLike, name: string): string | undefined {
  if (headers === undefined || headers === null) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === lower) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/**
 * The wait a server asked for, in milliseconds: `retry-after-ms` (OpenAI and
 * Anthropic send it), then `retry-after` as seconds or as an HTTP date
 * (RFC 9110 §10.2.3). Undefined when absent or unparseable.
 */
export function parseRetryAfter(headers: HeadersLike, now: number = Date.now()): number | undefined {
  const milliseconds = readHeader(headers, 'retry-after-ms');
  if (milliseconds !== undefined && milliseconds.trim() !== '') {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return Math.round(value);
  }
  const retryAfter = readHeader(headers, 'retry-after')?.trim();
  if (retryAfter === undefined || retryAfter === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.round(Number(retryAfter) * 1000);
  const date = Date.parse(retryAfter);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Gemini puts the wait in the error body (`google.rpc.RetryInfo`,
 * `"retryDelay": "30s"`) rather than a header; read it from the error text.
 */
export function parseRetryDelayFromBody(text: string): number | undefined {
  const match = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(text);
  return match?.[1] === undefined ? undefined : Math.round(Number(match[1]) * 1000);
}
