/**
 * What is wrong with what a provider's attempt resolved (`AttemptResult`),
 * said one way for every field: the field, what it must be, what it got.
 * A plugin's wire code may resolve anything; unchecked, `text: 42` or
 * `usage: { inputTokens: -5 }` reached the loop's ceilings and the stored
 * turn. What it got is shown by kind, never by value, wherever the value may
 * be the reply or a key (`text`, a bare string, a warning): such a message
 * reaches logs and transcripts.
 */
import { FINISH_REASONS } from '../model/finish-reason.ts';
import { describeKind, isRecord } from './provider-definition-check.ts';

/** A value by kind only (`describeKind`), a string with its length: `a string of 12 characters`, `a list`, `null`. */
function kindOf(value: unknown): string {
  return typeof value === 'string' ? `a string of ${value.length} character${value.length === 1 ? '' : 's'}` : describeKind(value);
}

/** The longest string shown as it is where a field holds a name or a count, not content (`"end_turn"`, `"10"`). */
const SHOWN_STRING_MAX = 40;

/** A number or boolean as it is; anything else by kind (a string may be the reply, or a key). */
function got(value: unknown): string {
  return typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' ? String(value) : kindOf(value);
}

/** As {@link got}, but a short one-line string quoted: for a field holding a name or a count (`"end_turn"`, `"10"`). */
function shown(value: unknown): string {
  return typeof value === 'string' && value.length <= SHOWN_STRING_MAX && !/[\p{Cc}\p{Cf}]/u.test(value) ? JSON.stringify(value) : got(value);
}

/** `field must be …, got …`: the one form of every message here. */
const must = (field: string, what: string, got: string): string => `result.${field} must be ${what}, got ${got}`;

const USAGE_FIELDS = ['inputTokens', 'outputTokens', 'cachedInputTokens', 'cacheWriteInputTokens'] as const;

/** What is wrong with what an attempt resolved, or undefined when it is an `AttemptResult`. */
export function attemptResultProblem(result: unknown): string | undefined {
  // A bare string is most often the reply itself: its length, not its text.
  if (!isRecord(result)) return `attempt must return { text, usage, finishReason, raw } (an AttemptResult), got ${got(result)}`;
  if (typeof result['text'] !== 'string') return must('text', 'a string (the reply)', got(result['text']));
  // Read by the loop (`length`: the reply was cut) and spread into the result: a slip here misled both silently.
  const finishReason = result['finishReason'];
  if (!(FINISH_REASONS as readonly unknown[]).includes(finishReason)) {
    return must('finishReason', `one of ${FINISH_REASONS.map((reason) => `'${reason}'`).join(', ')} (the provider's own goes in rawFinishReason)`, shown(finishReason));
  }
  const raw = result['rawFinishReason'];
  if (raw !== undefined && typeof raw !== 'string') return must('rawFinishReason', "a string (the provider's own finish reason) or left out", shown(raw));
  const warnings = result['warnings'];
  if (warnings !== undefined) {
    if (!Array.isArray(warnings)) return must('warnings', 'a list of texts or left out', got(warnings));
    const index = warnings.findIndex((warning) => typeof warning !== 'string');
    if (index !== -1) return must(`warnings[${index}]`, 'a text', got(warnings[index]));
  }
  const usage = result['usage'];
  if (usage === undefined) return undefined;
  if (!isRecord(usage)) return must('usage', '{ inputTokens, outputTokens } of whole numbers, or left out (then it is estimated)', shown(usage));
  for (const field of USAGE_FIELDS) {
    const value = usage[field];
    const required = field === 'inputTokens' || field === 'outputTokens';
    // A count beyond 2^53 − 1 is no count (1e308 summed to Infinity, which a stored result writes as null).
    if ((required || value !== undefined) && !(typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)) {
      return must(`usage.${field}`, `a whole number of tokens from 0 to 2^53 − 1${required ? '' : ', or left out'}`, shown(value));
    }
  }
  return undefined;
}
