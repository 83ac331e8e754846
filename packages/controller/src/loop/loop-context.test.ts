import { describe, expect, it } from 'vitest';
import { isoNow } from './loop-context.ts';

describe('isoNow', () => {
  it('formats every clock value: repeated, moved on, or gone back', () => {
    const start = Date.UTC(2026, 10, 25, 4, 0, 0, 1);
    const values = [start, start, start + 1, start - 5000, start - 5000, 0];
    let now = 0;
    const context = { clock: { now: () => now } };
    const seen = values.map((value) => {
      now = value;
      return isoNow(context);
    });
    expect(seen).toEqual(['2026-11-25T04:00:00.001Z', '2026-11-25T04:00:00.001Z', '2026-11-25T04:00:00.002Z', '2026-11-25T03:59:55.001Z', '2026-11-25T03:59:55.001Z', '1970-01-01T00:00:00.000Z']);
  });

  it('gives the text a Date gives for a clock with sub-millisecond readings, formatting once per millisecond', () => {
    const start = Date.UTC(2026, 10, 25, 4, 0, 0, 1);
    const values = [start + 0.25, start + 0.75, start + 1.5, start - 0.5, -1.5];
    let now = 0;
    const context = { clock: { now: () => now } };
    for (const value of values) {
      now = value;
      expect(isoNow(context)).toBe(new Date(value).toISOString());
    }
    const formatted: number[] = [];
    const toISOString = Date.prototype.toISOString;
    Date.prototype.toISOString = function (this: Date) {
      formatted.push(this.getTime());
      return toISOString.call(this);
    };
    try {
      for (const fraction of [0.1, 0.2, 0.3, 0.9]) {
        now = start + 10 + fraction;
        isoNow(context);
      }
    } finally {
      Date.prototype.toISOString = toISOString;
    }
    expect(formatted).toEqual([start + 10]);
  });

  it('throws for a clock value no date has, as before', () => {
    expect(() => isoNow({ clock: { now: () => Number.NaN } })).toThrow(RangeError);
  });
});
