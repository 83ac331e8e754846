import { isEnvelopeError } from '@askloop/envelope';
import { CliError } from '../../cli-error.ts';

/**
 * Runs a codec step on one input and reports a codec error (`ERR_ENV_…`) as
 * a `CliError` naming that input, so the dispatcher prints it in the same
 * shape as every other error. Anything else propagates unchanged.
 */
export function withCodecErrors<T>(file: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (isEnvelopeError(error)) throw CliError.fromLibrary(error, file);
    throw error;
  }
}
