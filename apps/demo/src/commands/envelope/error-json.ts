import { isEnvelopeError } from '@askloop/envelope';
import type { CommandIo } from '../../io.ts';

/**
 * Prints a codec error as the CLI's JSON shape
 * `{"ok":false,"error":{"code","message","line"?}}` and gives exit code 1.
 * Anything that is not a codec error (a usage error, a bug) is rethrown for
 * the dispatcher.
 */
export function reportCodecError(error: unknown, io: CommandIo): 1 {
  if (!isEnvelopeError(error)) throw error;
  io.stdout(`${JSON.stringify({ ok: false, error: error.toJSON() })}\n`);
  return 1;
}
