/**
 * Option values checked once, the same way in every command: integers within
 * a stated range, directories that exist. Each failure is
 * `CLI_OPTION_INVALID` naming the option, the value and what would be right.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError } from '../cli-error.ts';
import { closestName } from './closest-name.ts';

/** The range an integer option accepts, inclusive. */
export interface IntegerRange {
  min: number;
  max: number;
  /** What the number counts, for the message (`milliseconds`, `MiB`). */
  unit?: string;
  /** Why the bounds are what they are, appended to the message. */
  why?: string;
}

/**
 * Parses `--name VALUE` as a whole number in `range`; undefined stays
 * undefined. Refuses signs, fractions, exponents, hex, NaN and anything
 * outside the range (e.g. a timeout past Node's 2^31−1 ms timer limit).
 */
export function integerOption(name: string, text: string | undefined, range: IntegerRange): number | undefined {
  if (text === undefined) return undefined;
  const unit = range.unit === undefined ? '' : ` ${range.unit}`;
  const expected = `a whole number from ${range.min} to ${range.max}${unit}${range.why === undefined ? '' : ` (${range.why})`}`;
  const value = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < range.min || value > range.max) {
    throw new CliError('CLI_OPTION_INVALID', `--${name} must be ${expected}, not '${text}'`);
  }
  return value;
}

/** Resolves `--name DIR` against `cwd` and checks it is an existing directory. */
export function directoryOption(name: string, text: string | undefined, cwd: string): string | undefined {
  if (text === undefined) return undefined;
  // An empty value (an unset `$ROOT`) would resolve to the current folder: the tools confined there, silently.
  if (text.trim() === '') throw new CliError('CLI_OPTION_INVALID', `--${name} needs a directory, got an empty value (an unset variable?)`);
  const path = resolve(cwd, text);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    throw new CliError('CLI_OPTION_INVALID', `--${name} ${text}: no such directory`);
  }
  if (!isDirectory) throw new CliError('CLI_OPTION_INVALID', `--${name} ${text}: not a directory`);
  return path;
}

/** Checks `--name VALUE` is one of `choices`. */
export function choiceOption<T extends string>(name: string, text: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(text)) {
    // A slip of a letter or two, or the start of one choice only (`halt` for `halted`).
    const starting = text.length >= 2 ? choices.filter((choice) => choice.startsWith(text.toLowerCase())) : [];
    const meant = closestName(text, choices) ?? (starting.length === 1 ? starting[0] : undefined);
    throw new CliError('CLI_OPTION_INVALID', `--${name} must be ${choices.join(' or ')}, not '${text}'${meant === undefined ? '' : ` (did you mean '${meant}'?)`}`);
  }
  return text as T;
}
