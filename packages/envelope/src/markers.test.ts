/**
 * `markerLine` writes only the six markers (review: `markerLine('NOPE')`
 * returned `<<<NSENV:V4:NOPE>>>`, a marker no parser reads as one), and
 * `matchMarker` reads them back; a wrong argument is a `TypeError` naming the
 * function and the argument.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markerLine, matchMarker, SECTION_NAMES, type MarkerName } from './markers.ts';

const NAMES = ['START', ...SECTION_NAMES, 'END'] as const;

describe('markerLine', () => {
  it('writes a line matchMarker reads back for each of the six names', () => {
    for (const name of NAMES) expect(matchMarker(markerLine(name))).toBe(name);
  });

  it('refuses any other name with a TypeError naming the six, for any string', () => {
    const name = fc.oneof(fc.string(), fc.constantFrom(...NAMES).map((known) => known.toLowerCase()), fc.constantFrom(...NAMES).map((known) => ` ${known}`), fc.constantFrom('NOPE', 'INPUT', 'LOOP:DONE', 'V4:START', ''));
    fc.assert(
      fc.property(name, (candidate) => {
        if ((NAMES as readonly string[]).includes(candidate)) return;
        expect(() => markerLine(candidate as MarkerName)).toThrow(TypeError);
        expect(() => markerLine(candidate as MarkerName)).toThrow(/^markerLine: name must be one of START, USERDATA, SCRATCHPAD, OUTPUT, ACTIONS, END, got /);
      }),
    );
    expect(() => markerLine('NOPE' as MarkerName)).toThrow(new TypeError('markerLine: name must be one of START, USERDATA, SCRATCHPAD, OUTPUT, ACTIONS, END, got "NOPE"'));
    expect(() => markerLine('start' as MarkerName)).toThrow(new TypeError(`markerLine: name must be one of START, USERDATA, SCRATCHPAD, OUTPUT, ACTIONS, END, got "start"; did you mean 'START'?`));
    expect(() => markerLine(5 as never)).toThrow(new TypeError('markerLine: name must be one of START, USERDATA, SCRATCHPAD, OUTPUT, ACTIONS, END, got number'));
  });
});

describe('matchMarker', () => {
  it('takes a line of text only: another argument is a TypeError naming it', () => {
    expect(() => matchMarker(5 as never)).toThrow(new TypeError('matchMarker: line must be a string, got number'));
    expect(() => matchMarker(null as never)).toThrow(new TypeError('matchMarker: line must be a string, got null'));
    expect(matchMarker('  <<<NSENV:V4:END>>>  ')).toBe('END');
  });
});
