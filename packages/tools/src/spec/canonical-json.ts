/**
 * Canonical JSON text of a tool value: object keys sorted by UTF-8 byte order
 * (Go's `sort.Strings`, reference §3.5), no whitespace. Stores keep values in
 * this form and idempotence records compare arguments by it.
 */
import type { ToolValue } from './tool-value.ts';

/** Compares two strings by their UTF-8 bytes, as Go's sort.Strings does. */
export function compareUtf8(left: string, right: string): number {
  const a = Buffer.from(left, 'utf8');
  const b = Buffer.from(right, 'utf8');
  return Buffer.compare(a, b);
}

/** Canonical JSON text of `value` (sorted keys, no whitespace). */
export function canonicalJson(value: ToolValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const keys = Object.keys(value).sort(compareUtf8);
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, ToolValue>)[key] as ToolValue)}`).join(',')}}`;
}
