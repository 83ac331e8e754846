/**
 * What the CLI prints after a HALT's `cause:` line on standard error: the
 * hint lines (`  repair: …`, `  grant: …`) the tests of each hint read.
 */
import { expect } from 'vitest';

/** The line after `cause:` in `err` (undefined when there is none); fails the test when there is no `cause:` line. */
export function lineAfterCause(err: string): string | undefined {
  const lines = err.split('\n');
  const at = lines.findIndex((line) => line.startsWith('  cause: '));
  expect(at, err).toBeGreaterThanOrEqual(0);
  return lines[at + 1] === '' ? undefined : lines[at + 1];
}
