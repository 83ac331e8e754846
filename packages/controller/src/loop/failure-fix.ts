/**
 * What the model is told to do about the last turn's run-time error, in the
 * system text of the next turn: the OUTPUT's `SYSTEM_ERROR` line says what
 * went wrong and where, this says how to fix it (the interpreter's `fix` for
 * the code, worded for a program's author). In the system text rather than in
 * OUTPUT, so a recorded session's OUTPUT (which `replay` compares) stays as
 * it was recorded.
 */
import { SCRIPT_ERROR_CODES } from '@askloop/interpreter';
import type { TurnFailure } from './turn-record.ts';

/** Codes whose interpreter `fix` speaks to the host (its options), in words for the program's author instead. */
const FOR_THE_PROGRAM: Readonly<Record<string, string>> = {
  SCRIPT_FUEL_EXHAUSTED: 'do less work in one turn and leave the rest for the next',
  SCRIPT_TIMEOUT: 'do less in one turn (fewer or smaller tool calls, shorter loops) and leave the rest for the next',
  SCRIPT_ASK_UNAVAILABLE: 'this host answers no `ask`: do the work with tools',
  SCRIPT_PROMPT_UNAVAILABLE: 'this host answers no `promptuser`: emit the question instead',
  // Its message ends in advice for the host's operator ("add the grant ... to the policy"), which a program cannot
  // follow: fed back under `repair`, the model is told what it can do instead.
  SCRIPT_TOOL_DENIED: 'a program cannot change its policy or grants: use a listed tool, keep to what the Host rules list as granted, or say in OUTPUT what the task needs',
};

/** Codes with nothing to add to their message: the script's own failure, or a message that is the whole story. */
const NOTHING_TO_ADD: ReadonlySet<string> = new Set(['SCRIPT_FAIL', 'SCRIPT_MUST_FAILED', 'SCRIPT_INVALID_ARGUMENT', 'SCRIPT_TOOL_ARGUMENTS', 'SCRIPT_TOOL_ERROR', 'SCRIPT_ASK_FAILED']);

/** The kinds of failure a program's author fixes in the program (check and syntax messages say their fix already). */
const PROGRAM_KINDS: ReadonlySet<string> = new Set(['runtime', 'quota', 'timeout']);

/** The line the next turn's system text carries for `failure`, or undefined when there is nothing to add. */
export function failureFixLine(failure: TurnFailure): string | undefined {
  const { code } = failure;
  if (!code.startsWith('SCRIPT_') || NOTHING_TO_ADD.has(code) || !Object.hasOwn(SCRIPT_ERROR_CODES, code)) return undefined;
  const info = SCRIPT_ERROR_CODES[code as keyof typeof SCRIPT_ERROR_CODES];
  if (!PROGRAM_KINDS.has(info.kind) && !Object.hasOwn(FOR_THE_PROGRAM, code)) return undefined;
  // Latin-1 only (`…` as `...`), as the rest of the host's system text, so V8 keeps the whole text one byte a character.
  const fix = (FOR_THE_PROGRAM[code] ?? info.fix).replace(/\.$/, '').replaceAll('…', '...');
  return `How to fix ${code} (the SYSTEM_ERROR line in OUTPUT): ${fix.charAt(0).toUpperCase()}${fix.slice(1)}.`;
}
