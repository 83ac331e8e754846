/**
 * What a tool gives back, with secrets replaced (`createToolHost({ redact })`):
 * a tool whose result or error quotes a key (a plugin's `throw new
 * Error('bad key ' + key)`) would otherwise hand it to the program, and from
 * there to the model, the OUTPUT and every record of the turn.
 */
import { ToolError, detailsOf } from '../errors/tool-error.ts';
import type { ToolValue } from '../spec/tool-value.ts';

/** `value` with `redact` applied to every string in it, map keys included; the same object when nothing changed. */
export function redactToolValue(value: ToolValue, redact: (text: string) => string): ToolValue {
  if (typeof value === 'string') return redact(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: ToolValue[] | undefined;
    for (let index = 0; index < value.length; index += 1) {
      const item = value[index] as ToolValue;
      const redacted = redactToolValue(item, redact);
      if (redacted !== item) (copy ??= value.slice())[index] = redacted;
    }
    return copy ?? value;
  }
  const map = value as { readonly [key: string]: ToolValue };
  const keys = Object.keys(map);
  // Nothing is copied until something changes: most maps (a record's, a tool's) hold no secret, and are walked often.
  let entries: [string, ToolValue][] | undefined;
  let used: Set<string> | undefined;
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    const item = map[key] as ToolValue;
    const hidden = redact(key);
    const redacted = redactToolValue(item, redact);
    if (entries === undefined) {
      if (hidden === key && redacted === item) continue;
      entries = keys.slice(0, index).map((kept) => [kept, map[kept] as ToolValue]);
      used = new Set(keys.slice(0, index));
    }
    let redactedKey = hidden;
    // A key the redaction made like another (`a <key>` beside `a [REDACTED]`) stays, numbered: neither value is lost.
    for (let copy = 2; redactedKey !== key && (used?.has(redactedKey) === true || Object.hasOwn(map, redactedKey)); copy += 1) redactedKey = `${hidden} (${copy})`;
    used?.add(redactedKey);
    entries.push([redactedKey, redacted]);
  }
  if (entries === undefined) return value;
  const copy: Record<string, ToolValue> = {};
  // Defined, not assigned, as `toToolValue` copies a map: a key such as `__proto__` stays a key.
  for (const [key, item] of entries) Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** Whether `text` occurs in any string of `values`, map keys included. */
export function holdsText(values: readonly ToolValue[] | ToolValue, text: string): boolean {
  if (typeof values === 'string') return values.includes(text);
  if (values === null || typeof values !== 'object') return false;
  if (Array.isArray(values)) return values.some((value: ToolValue) => holdsText(value, text));
  return Object.entries(values as Record<string, ToolValue>).some(([key, value]) => key.includes(text) || holdsText(value, text));
}

/**
 * `failure` with `redact` applied to its message and capability (a grant it would change is dropped). When that changes it, a new
 * error of the same code and fields without the `cause`, which may hold the
 * secret in its own message.
 */
export function redactToolFailure(failure: ToolError, redact: (text: string) => string): ToolError {
  const message = redact(failure.message);
  if (message === failure.message) return failure;
  // The grant names what the program asked for, which may hold a key. Hidden, it would name another scope than the
  // call needs (`notes:write:n [redacted]`), which an operator could add and still be refused: so it is dropped.
  // The capability is only said, so it is hidden as the message is.
  const details = detailsOf(failure);
  if (details.grant !== undefined && redact(details.grant) !== details.grant) delete details.grant;
  if (details.capability !== undefined) details.capability = redact(details.capability);
  return new ToolError(failure.code, message, details);
}
