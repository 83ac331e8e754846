import type { EnvelopeError } from '@askloop/envelope';

/** The CLI's JSON shape of a codec error: `{"ok":false,"error":{"code","message","line"?}}`. */
export function errorJson(error: EnvelopeError): { ok: false; error: ReturnType<EnvelopeError['toJSON']> } {
  return { ok: false, error: error.toJSON() };
}
