import { ProviderError } from '../errors/provider-error.ts';
import { PROVIDER_ERROR_CODES } from '../errors/provider-error-code.ts';
import { REPLAY_RECORD_TYPE, type ReplayRecord } from './replay-record.ts';

const CODES: ReadonlySet<string> = new Set(PROVIDER_ERROR_CODES);

/**
 * Reads the model replies of a transcript: JSON Lines (one record per line),
 * or one JSON array. Records of other types are skipped; a malformed line or
 * a reply without `text` or a known `error.code` is `PROVIDER_REPLAY_INVALID`.
 */
export function parseReplayTranscript(source: string): ReplayRecord[] {
  const trimmed = source.trim();
  const entries: { value: unknown; line: number }[] = trimmed.startsWith('[')
    ? asArray(parseJSON(trimmed, 1)).map((value, index) => ({ value, line: index + 1 }))
    : source.split('\n').flatMap((text, index) => (text.trim() === '' ? [] : [{ value: parseJSON(text, index + 1), line: index + 1 }]));
  const records: ReplayRecord[] = [];
  for (const { value, line } of entries) {
    if (typeof value !== 'object' || value === null || (value as { type?: unknown }).type !== REPLAY_RECORD_TYPE) continue;
    const record = value as ReplayRecord;
    const hasText = typeof record.text === 'string';
    const hasError = typeof record.error === 'object' && record.error !== null && CODES.has(record.error.code);
    if (!hasText && !hasError) invalid(`record ${line} has neither a "text" string nor an "error" with a known code`);
    records.push(record);
  }
  return records;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : invalid('a transcript starting with "[" must be one JSON array');
}

function parseJSON(text: string, line: number): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    return invalid(`line ${line} is not JSON: ${(error as Error).message}`);
  }
}

function invalid(message: string): never {
  throw new ProviderError({ code: 'PROVIDER_REPLAY_INVALID', provider: 'replay', message });
}
