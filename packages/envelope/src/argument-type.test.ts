/**
 * A wrong argument type is a `TypeError` naming the function and the argument, as the README promises, from every
 * function that takes text: `progressDigest(5, …)` threw `text.split is not a function`, `canonicalizeJson(5)`
 * `this.text.startsWith is not a function`, and `scanDoneMarker([5])` read the number as a line.
 */
import { describe, expect, it } from 'vitest';
import { canonicalizeJson, cleanPayload, haltMarker, neutralizeMarkerLines, normalizeForDigest, progressDigest, scanDoneMarker, scanLoopControlV1 } from './index.ts';

describe('wrong argument types', () => {
  it.each([
    ['progressDigest', () => progressDigest(5 as never, ''), 'progressDigest: output must be a string, got number'],
    ['progressDigest (scratchpad)', () => progressDigest('', null as never), "progressDigest: scratchpad ('' when there is none) must be a string, got null"],
    ['normalizeForDigest', () => normalizeForDigest(undefined as never), 'normalizeForDigest: text must be a string, got undefined'],
    ['canonicalizeJson', () => canonicalizeJson({ a: 1 } as never), 'canonicalizeJson: text (canonicalJson takes a value) must be a string, got object'],
    ['cleanPayload', () => cleanPayload(5 as never), 'cleanPayload: raw must be a string, got number'],
    ['neutralizeMarkerLines', () => neutralizeMarkerLines(['x'] as never), 'neutralizeMarkerLines: text must be a string, got object'],
    ['scanLoopControlV1', () => scanLoopControlV1(5 as never), 'scanLoopControlV1: output must be a string, got number'],
    ['haltMarker', () => haltMarker(undefined as never), 'haltMarker: reason must be a string, got undefined'],
    ['scanDoneMarker (a line)', () => scanDoneMarker(['<<<LOOP:DONE>>>', 5] as never), 'scanDoneMarker: OUTPUT line [1] must be a string, got number'],
  ])('%s', (_name, call, message) => {
    expect(call).toThrow(TypeError);
    expect(call).toThrow(message);
  });
});
