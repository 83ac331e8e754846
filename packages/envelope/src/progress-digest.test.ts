import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeForDigest, progressDigest, ProgressTracker } from './progress-digest.ts';

describe('progress digest', () => {
  it('ignores trailing spaces, CRLF and DONE-marker lines but not leading indentation', () => {
    expect(progressDigest('a  \r\nb\t', 's')).toBe(progressDigest('a\nb', 's'));
    expect(progressDigest('a\n<<<LOOP:DONE>>> result', '')).toBe(progressDigest('a', ''));
    expect(progressDigest('  a', '')).not.toBe(progressDigest('a', ''));
  });

  // Review: the \r dropped at the end of the text was dropped after a final newline too, a second \r per line:
  // `a\r\r\n` digested as `a\n`, where the line is `a\r` (one \r of \r\n is the line end, the other is content).
  it('drops one \\r per line end, not a second one before a final newline', () => {
    expect(normalizeForDigest('a\r\r\n')).toBe('a\r\n');
    expect(normalizeForDigest('a\r\r\n')).toBe(normalizeForDigest('a\r\r'));
    expect(progressDigest('a\r\r\n', '')).not.toBe(progressDigest('a\n', ''));
    expect(normalizeForDigest('a\r\n')).toBe('a\n');
    expect(normalizeForDigest('a\r')).toBe('a\n');
  });

  it('keeps the OUT/SCR boundary: moving text between them changes the digest', () => {
    expect(progressDigest('x', '')).not.toBe(progressDigest('', 'x'));
  });

  it('normalises idempotently', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(normalizeForDigest(normalizeForDigest(text))).toBe(normalizeForDigest(text));
      }),
    );
  });
});

describe('ProgressTracker', () => {
  it('trips on the third consecutive identical digest by default', () => {
    const tracker = new ProgressTracker();
    expect([tracker.record('a'), tracker.record('a'), tracker.record('a')]).toEqual([false, false, true]);
  });

  it('starts counting again when the digest changes', () => {
    const tracker = new ProgressTracker(2);
    expect([tracker.record('a'), tracker.record('b'), tracker.record('a'), tracker.record('a')]).toEqual([false, false, false, true]);
    expect(tracker.consecutive).toBe(2);
  });

  it('treats a limit of zero or less as the default of 3', () => {
    expect(new ProgressTracker(0).limit).toBe(3);
    expect(new ProgressTracker(-1).limit).toBe(3);
  });
});
