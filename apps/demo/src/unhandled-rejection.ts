/**
 * A promise rejected that nothing handled: Node's default ends the process.
 * In `askloop` the code that leaves one is most likely a plugin's or a tool's
 * (a promise it neither awaited nor caught, after its call had answered), and
 * ending the process for it ends every session the host runs — all of an
 * `askloop worker`'s. Nothing of the host waits on such a promise, so the
 * host says so in one line and goes on; the loop's own failures are always
 * handled and typed. A synchronous throw nothing caught (`uncaughtException`)
 * still ends the process: the code it came from stopped halfway.
 */
import { oneLine } from './progress/format-values.ts';

/** The code of the warning. */
export const UNHANDLED_REJECTION = 'CLI_UNHANDLED_REJECTION';

/** How much of the reason's message the line keeps. */
const REASON_CHARS = 500;

/** The warning line for `reason`, its message passed through `redact` and cut to one line (`debug`: its stack on the lines after). */
export function unhandledRejectionLine(reason: unknown, redact: (value: unknown) => unknown, debug: boolean): string {
  let message: string;
  let stack = '';
  try {
    message = reason instanceof Error ? `${reason.name}: ${reason.message}` : typeof reason === 'string' ? reason : `a rejection with ${reason === null ? 'null' : typeof reason}, not an Error`;
    if (debug && reason instanceof Error && typeof reason.stack === 'string') stack = `\n${redact(reason.stack) as string}`;
  } catch {
    // A getter that throws: the handler must not throw in its turn (that would end the process after all).
    message = 'an Error whose message cannot be read';
  }
  return `askloop: warning: a promise was rejected and nothing handled it (${UNHANDLED_REJECTION}): ${oneLine(redact(message) as string, REASON_CHARS)}; the host goes on. It is a bug of code the host runs, most likely a plugin's or a tool's (a promise it neither awaited nor caught)${debug ? '' : '; ASKLOOP_DEBUG=1 prints its stack'}.${stack}\n`;
}

/**
 * Prints each rejection nothing handled as one warning with `write`, instead of ending the process; `redactor` gives
 * the command's redactor at that moment (it knows the secrets of the files the command has read by then).
 */
export function warnOnUnhandledRejections(write: (text: string) => void, redactor: () => (value: unknown) => unknown, debug: boolean): void {
  process.on('unhandledRejection', (reason) => write(unhandledRejectionLine(reason, redactor(), debug)));
}
