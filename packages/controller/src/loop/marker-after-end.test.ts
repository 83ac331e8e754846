import { describe, expect, it } from 'vitest';
import { MarkerAfterEndWatch } from './marker-after-end.ts';

const watched = (pieces: readonly string[], limit = 1024): boolean => {
  const watch = new MarkerAfterEndWatch(limit);
  for (const piece of pieces) watch.push(piece);
  return watch.found;
};

describe('MarkerAfterEndWatch', () => {
  it('finds the marker in one piece or split across several', () => {
    expect(watched(['Done! <<<LOOP:DONE>>> 4'])).toBe(true);
    expect(watched(['Done! <<<LO', 'OP:DO', '', 'NE>>> 4'])).toBe(true);
    expect(watched([...'<<<LOOP:DONE>>>'])).toBe(true);
  });

  it('finds nothing in chatter, a near miss or a closing fence', () => {
    expect(watched(['```\n', 'Anything else?'])).toBe(false);
    expect(watched(['<<<LOOP: DONE>>> 4'])).toBe(false);
    expect(watched(['<<<LOOP:DONE>', '> 4'])).toBe(false);
  });

  it('reads only the first `limit` characters, however they were split', () => {
    expect(watched([`${'x'.repeat(10)}<<<LOOP:DONE>>>`], 25)).toBe(true);
    expect(watched([`${'x'.repeat(11)}<<<LOOP:DONE>>>`], 25)).toBe(false);
    expect(watched(['x'.repeat(11), '<<<LOOP:', 'DONE>>>'], 25)).toBe(false);
    expect(watched(['x'.repeat(10), '<<<LOOP:', 'DONE>>>'], 25)).toBe(true);
  });
});
