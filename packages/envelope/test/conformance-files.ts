/**
 * Reads the conformance suite's data folders: `conformance/<area>/<case>/`.
 * Large inputs are stored as `input.gen.json`, a list of parts: `{ text }`,
 * `{ repeat, times }` (one character repeated), or `{ repeatLine, width,
 * count }` (`count` lines of `width` copies of a character, each ending in `\n`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('./conformance/', import.meta.url).pathname;

/** One case folder. */
export interface ConformanceCase {
  name: string;
  directory: string;
  expected: unknown;
  /** Reads a file of the case as UTF-8 text. */
  text(file: string): string;
}

type Part = { text: string } | { repeat: string; times: number } | { repeatLine: string; width: number; count: number };

/** Expands a generated value: a string, or `{ repeat, times }`. */
export function expandValue(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && 'repeat' in value && 'times' in value) {
    const { repeat, times } = value as { repeat: string; times: number };
    return repeat.repeat(times);
  }
  return value;
}

/** Every case of an area, sorted by name. */
export function conformanceCases(area: string): ConformanceCase[] {
  const directory = join(ROOT, area);
  return readdirSync(directory)
    .sort()
    .map((name) => {
      const caseDirectory = join(directory, name);
      return {
        name,
        directory: caseDirectory,
        expected: JSON.parse(readFileSync(join(caseDirectory, 'expected.json'), 'utf8')),
        text: (file: string) => readFileSync(join(caseDirectory, file), 'utf8'),
      };
    });
}

/** A case's input as bytes: `input.bin`, `input.txt`, or expanded from `input.gen.json`. */
export function caseInputBytes(testCase: ConformanceCase): Uint8Array {
  const binary = join(testCase.directory, 'input.bin');
  if (existsSync(binary)) return new Uint8Array(readFileSync(binary));
  const text = join(testCase.directory, 'input.txt');
  if (existsSync(text)) return new Uint8Array(readFileSync(text));
  const parts = JSON.parse(readFileSync(join(testCase.directory, 'input.gen.json'), 'utf8')) as Part[];
  let generated = '';
  for (const part of parts) {
    if ('text' in part) generated += part.text;
    else if ('repeat' in part) generated += part.repeat.repeat(part.times);
    else generated += `${part.repeatLine.repeat(part.width)}\n`.repeat(part.count);
  }
  return new TextEncoder().encode(generated);
}

/** True when the case's input is raw bytes that need not be valid UTF-8. */
export function isBinaryCase(testCase: ConformanceCase): boolean {
  return existsSync(join(testCase.directory, 'input.bin'));
}
