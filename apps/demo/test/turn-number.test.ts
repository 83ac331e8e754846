import { MAX_TURN_INDEX } from '@askloop/controller';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLastCount, parseTurnRange } from '../src/commands/turn-selection.ts';
import { readTurnNumber } from '../src/turn-number.ts';
import { parseTurnIndex } from '../src/view/turn-page.ts';

describe('readTurnNumber: the turn number show --turn and the viewer both read', () => {
  it('reads every whole number from 1 to MAX_TURN_INDEX written in plain digits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_TURN_INDEX }), (turn) => {
        expect(readTurnNumber(String(turn))).toBe(turn);
      }),
    );
    expect(readTurnNumber(String(MAX_TURN_INDEX))).toBe(MAX_TURN_INDEX);
  });

  it('refuses what is not one: past the stores\' bound, zero, a sign, a leading zero, spaces, an exponent, a fraction', () => {
    for (const text of [String(MAX_TURN_INDEX + 1), '9999999999', '99999999999', '0', '-1', '+1', '01', ' 1', '1 ', '1e3', '1.0', '0x10', '١', '']) {
      expect(readTurnNumber(text), text).toBeUndefined();
    }
  });

  // The viewer's `/turns/N` and `?before=N` and show's `--turn`/`--last` each had their own pattern (up to 10 and up to
  // 9 digits): `--turn 1000000000` was "not a turn number" to show while the viewer served that turn's address.
  it('is what the viewer and show accept, each in its own words', () => {
    expect(parseTurnIndex('before', '1000000000')).toBe(1_000_000_000);
    expect(parseTurnRange('1000000000')).toEqual({ first: 1_000_000_000, last: 1_000_000_000 });
    expect(parseTurnRange('2..1000000000')).toEqual({ first: 2, last: 1_000_000_000 });
    expect(parseLastCount(' 1000000000 ')).toBe(1_000_000_000);
    expect(parseTurnIndex('before', String(MAX_TURN_INDEX + 1))).toEqual({ error: expect.stringContaining(`before must be a turn number, a whole number from 1 to ${MAX_TURN_INDEX}`) });
    expect(() => parseTurnRange(String(MAX_TURN_INDEX + 1))).toThrow(/--turn takes a turn number/);
  });
});
