/**
 * What the model is told after its reply held a known secret (the loop's
 * `secrets()`, the model's keys): the reply was stored, and its program run,
 * with `[REDACTED]` in its place (`hide-secrets.ts`), so whatever the program
 * did with that value it did with the mark instead. Without a word, a model
 * would read the mark in its OUTPUT as the tools' doing and write the key
 * again. In the system text, as the fix of a run-time error is.
 */
import { REDACTED } from '@askloop/providers';
import type { TurnRecord } from './turn-record.ts';

/** The line for the turn after `last`, or undefined when its reply held no known secret. */
export function secretHiddenLine(last: TurnRecord): string | undefined {
  if (last.reply?.secretsHidden !== true) return undefined;
  return `Your last reply held the value of a secret of this host (a key): it was replaced by ${REDACTED} before your program ran, and that is what the program used and what is kept. Never write a key in a program: a tool that needs one reads it itself.`;
}
