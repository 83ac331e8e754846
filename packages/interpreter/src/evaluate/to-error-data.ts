/** Any exception of an evaluation (compiling or running) as the run's error data. */
import { isStackOverflow, ScriptError, type ScriptErrorData } from '../runtime/index.ts';

/** A script error as data (with a `command` frame when it has none); a stack overflow as `SCRIPT_CALL_DEPTH`, another `RangeError` (a value past the engine's limits) as `SCRIPT_VALUE_TOO_LARGE`; anything else as `SCRIPT_INTERNAL`. */
export function toErrorData(error: unknown): ScriptErrorData {
  if (error instanceof ScriptError) {
    if (error.frames.length === 0) error.frames.push({ name: 'command', line: error.line, column: error.column });
    return error.toData();
  }
  if (error instanceof RangeError && !isStackOverflow(error)) {
    return new ScriptError('SCRIPT_VALUE_TOO_LARGE', `A value grew past what the engine can hold (${error.message}); build smaller values.`).toData();
  }
  if (error instanceof RangeError) {
    return new ScriptError('SCRIPT_CALL_DEPTH', 'The interpreter ran out of stack; calls or expressions are nested too deeply (limit: callDepth).').toData();
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ScriptError('SCRIPT_INTERNAL', `Interpreter error (please report): ${message}`).toData();
}
