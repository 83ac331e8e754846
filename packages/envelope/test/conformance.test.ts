/**
 * The envelope conformance suite: every folder under `conformance/` is a case.
 * Parse cases run five ways — one-shot on text, one-shot on bytes, and the
 * stream parser on byte chunks of one byte, on random byte chunks, and on
 * random text chunks — and must give the same result or error every time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  canonicalizeJson,
  EnvelopeStreamParser,
  extractEnvelope,
  isEnvelopeError,
  parseEnvelope,
  progressDigest,
  scanDoneMarker,
  scanLoopControlV1,
  validateUserdata,
  type ParseResult,
} from '../src/index.ts';
import { caseInputBytes, conformanceCases, expandValue, isBinaryCase } from './conformance-files.ts';

type Outcome = { ok: true; result: ParseResult } | { ok: false; error: unknown };

function outcome(run: () => ParseResult): Outcome {
  try {
    return { ok: true, result: run() };
  } catch (error) {
    return { ok: false, error };
  }
}

function expectOutcome(actual: Outcome, expected: Record<string, unknown>): void {
  if (expected.ok === true) {
    if (!actual.ok) throw actual.error;
    const envelope = Object.fromEntries(Object.entries(expected.envelope as object).map(([key, value]) => [key, expandValue(value)]));
    expect(actual.result.envelope).toEqual(envelope);
    if ('lints' in expected) expect(actual.result.lints).toEqual(expected.lints);
    if ('lintCodes' in expected) expect(actual.result.lints.map((lint) => lint.code)).toEqual(expected.lintCodes);
    if ('lintMessages' in expected) expect(actual.result.lints.map((lint) => lint.message)).toEqual(expected.lintMessages);
    return;
  }
  expect(actual.ok, 'expected an error').toBe(false);
  if (actual.ok) return;
  expect(isEnvelopeError(actual.error), String(actual.error)).toBe(true);
  expect(actual.error).toMatchObject(expected.error as object);
}

/** A deterministic generator, so random chunkings are the same every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function streamChunks<T extends string | Uint8Array>(input: T, sizes: () => number): Outcome {
  const parser = new EnvelopeStreamParser();
  return outcome(() => {
    for (let offset = 0; offset < input.length; ) {
      const size = Math.max(1, sizes());
      if (parser.push(input.slice(offset, offset + size) as T) === 'complete') return parser.result!;
      offset += size;
    }
    return parser.end();
  });
}

describe('parse', () => {
  for (const testCase of conformanceCases('parse')) {
    const expected = testCase.expected as Record<string, unknown>;
    const bytes = caseInputBytes(testCase);
    const small = bytes.length < 65_536;
    it(`${testCase.name}: one-shot bytes`, () => expectOutcome(outcome(() => parseEnvelope(bytes)), expected));
    it(`${testCase.name}: stream, ${small ? 'one-byte' : '4 KiB'} chunks`, () => {
      expectOutcome(streamChunks(bytes, () => (small ? 1 : 4096)), expected);
    });
    it(`${testCase.name}: stream, random byte chunks`, () => {
      const random = seededRandom(bytes.length);
      expectOutcome(streamChunks(bytes, () => Math.floor(random() * (small ? 40 : 70_000))), expected);
    });
    if (isBinaryCase(testCase)) continue;
    const text = new TextDecoder().decode(bytes);
    it(`${testCase.name}: one-shot text`, () => expectOutcome(outcome(() => parseEnvelope(text)), expected));
    it(`${testCase.name}: stream, random text chunks`, () => {
      const random = seededRandom(text.length + 7);
      expectOutcome(streamChunks(text, () => Math.floor(random() * (small ? 40 : 70_000))), expected);
    });
  }
});

describe('extract', () => {
  for (const testCase of conformanceCases('extract')) {
    it(testCase.name, () => {
      expectOutcome(outcome(() => extractEnvelope(new TextDecoder().decode(caseInputBytes(testCase)))), testCase.expected as Record<string, unknown>);
    });
  }
});

describe('digest', () => {
  for (const testCase of conformanceCases('digest')) {
    it(testCase.name, () => {
      expect(progressDigest(testCase.text('output.txt'), testCase.text('scratchpad.txt'))).toBe((testCase.expected as { digest: string }).digest);
    });
  }
});

describe('canonical JSON', () => {
  for (const testCase of conformanceCases('canonical')) {
    it(testCase.name, () => {
      const expected = testCase.expected as { output?: string; error?: string };
      const input = testCase.text('input.json');
      if (expected.error === undefined) expect(canonicalizeJson(input)).toBe(expected.output);
      else expect(() => canonicalizeJson(input)).toThrow(expect.objectContaining({ code: expected.error }));
    });
  }
});

describe('loop control, v4', () => {
  for (const testCase of conformanceCases('control-v4')) {
    it(testCase.name, () => {
      const expected = testCase.expected as { done: boolean; result: string | null; lintCodes: string[] };
      const scan = scanDoneMarker(testCase.text('output.txt'));
      expect({ done: scan.done, result: scan.result, lintCodes: scan.lints.map((lint) => lint.code) }).toEqual(expected);
    });
  }
});

describe('loop control, v1', () => {
  for (const testCase of conformanceCases('control-v1')) {
    it(testCase.name, () => {
      const expected = testCase.expected as { signal: string | null; shouldContinue: boolean; reason?: string };
      const scan = scanLoopControlV1(testCase.text('output.txt'));
      expect(scan.signal).toBe(expected.signal);
      expect(scan.shouldContinue).toBe(expected.shouldContinue);
      if (expected.reason !== undefined) expect(scan.winner?.reason).toBe(expected.reason);
    });
  }
});

describe('USERDATA', () => {
  for (const testCase of conformanceCases('userdata')) {
    it(testCase.name, () => {
      const expected = testCase.expected as { ok: boolean; code?: string; path?: string };
      const input = testCase.text('input.json');
      if (expected.ok) expect(validateUserdata(input)).toEqual(JSON.parse(input));
      else expect(() => validateUserdata(input)).toThrow(expect.objectContaining({ code: expected.code, path: expected.path }));
    });
  }
});

// The README quotes the number of data folders; cases added without it made it say 96 of 105.
describe('the conformance folders as the README counts them', () => {
  it('are as many as README.md says', () => {
    const areas = readdirSync(new URL('./conformance/', import.meta.url), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    const total = areas.reduce((sum, area) => sum + conformanceCases(area).length, 0);
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(Number(/(\d+) data\s+folders/.exec(readme)?.[1])).toBe(total);
  });
});
