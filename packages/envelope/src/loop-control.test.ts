import { describe, expect, it } from 'vitest';
import { haltMarker, scanLoopControlV1 } from './loop-control-v1.ts';
import { scanDoneMarker } from './loop-control-v4.ts';

describe('scanDoneMarker', () => {
  it('accepts the emit list and reports the OUTPUT line of the first marker', () => {
    const scan = scanDoneMarker(['step one', 'two\nlines', '<<<LOOP:DONE>>>']);
    expect(scan).toEqual({ done: true, result: 'step one\ntwo\nlines', line: 4, lints: [] });
  });

  it('leaves later markers out of the result', () => {
    expect(scanDoneMarker(['a', '<<<LOOP:DONE>>>', '<<<LOOP:DONE>>> late']).result).toBe('a');
  });
});

describe('scanLoopControlV1', () => {
  it('keeps the control JSON details', () => {
    const scan = scanLoopControlV1('{"loop":"continue","notes":"plan ready","plan_digest":"sha256:abc"}');
    expect(scan.winner).toEqual({ signal: 'continue', source: 'json', line: 1, notes: 'plan ready', planDigest: 'sha256:abc' });
  });

  it('ignores a first line that is JSON but not control', () => {
    expect(scanLoopControlV1('{"answer": 1}').signal).toBeNull();
    expect(scanLoopControlV1('{"loop": "sideways"}').signal).toBeNull();
  });

  it('writes a halt marker the scanner reads back', () => {
    expect(scanLoopControlV1(haltMarker('max-turns')).winner).toMatchObject({ signal: 'halt', reason: 'max-turns' });
  });
});
