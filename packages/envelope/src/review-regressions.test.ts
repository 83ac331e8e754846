/**
 * Regression tests for defects found in review: each failed before its fix.
 * The adversarial inputs are sized so the old quadratic code took seconds to
 * minutes; they assert results, not times, and stay fast because the fixed
 * code is linear.
 */
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.ts';
import { cleanPayload } from './clean-payload.ts';
import { composeEnvelope } from './compose-envelope.ts';
import { EnvelopeStreamParser } from './envelope-stream-parser.ts';
import { extractEnvelope } from './extract-envelope.ts';
import { MAX_ENVELOPE_BYTES } from './limits.ts';
import { scanLoopControlV1 } from './loop-control-v1.ts';
import { scanDoneMarker } from './loop-control-v4.ts';
import { parseEnvelope } from './parse-envelope.ts';
import { normalizeForDigest, ProgressTracker } from './progress-digest.ts';
import { validateUserdata } from './userdata.ts';

const spaces = ' '.repeat(1_000_000);

describe('linear time on adversarial input', () => {
  it('normalizeForDigest: a long run of spaces before text', () => {
    expect(normalizeForDigest(`a${spaces}b`)).toBe(`a${spaces}b\n`);
  });

  it('cleanPayload and scanDoneMarker: a long run of spaces before text', () => {
    expect(cleanPayload(`a${spaces}b`)).toBe(`a${spaces}b`);
    expect(scanDoneMarker(`<<<LOOP:DONE>>> a${spaces}b`).result).toBe(`a${spaces}b`);
  });

  it('extractEnvelope: a long run of spaces after START', () => {
    expect(() => extractEnvelope(`<<<NSENV:V4:START>>>\n${spaces}x`)).toThrow(expect.objectContaining({ code: 'ERR_ENV_SIZE', line: 2 }));
    expect(() => extractEnvelope(`<<<NSENV:V4:START>>>\n${spaces.slice(0, 100_000)}x`)).toThrow(expect.objectContaining({ code: 'ERR_ENV_MARKERS_INVALID' }));
  });

  it('scanLoopControlV1: a line of unclosed markers', () => {
    expect(scanLoopControlV1('[[loop:done:'.repeat(100_000)).signal).toBeNull();
    expect(scanLoopControlV1(`${'[[loop:abort:'.repeat(50_000)}x]] [[loop:done]]`).winner).toMatchObject({ signal: 'abort' });
  });

  it('EnvelopeStreamParser: one long line pushed in small chunks', () => {
    const parser = new EnvelopeStreamParser();
    parser.push('<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n');
    for (let index = 0; index < 25_000; index += 1) parser.push('x'.repeat(16));
    parser.push('\n<<<NSENV:V4:ACTIONS>>>\nc\n<<<NSENV:V4:END>>>\n');
    expect(parser.result?.envelope.userdata.length).toBe(400_000);
  });

  it('EnvelopeStreamParser: fails a never-ending line once it takes the envelope over 1 MiB', () => {
    const parser = new EnvelopeStreamParser();
    parser.push('<<<NSENV:V4:START>>>\n');
    let error: unknown;
    try {
      for (let index = 0; index < 200; index += 1) parser.push('y'.repeat(8192));
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'ERR_ENV_SIZE', line: 2 });
  });
});

describe('fixed defects', () => {
  it('canonicalJson writes holes of sparse arrays as null', () => {
    expect(canonicalJson([, 1])).toBe('[null,1]');
    expect(canonicalJson(new Array(2))).toBe('[null,null]');
  });

  it('the digest drops a carriage return at the very end, as at any line end', () => {
    expect(normalizeForDigest('abc\r')).toBe('abc\n');
    expect(normalizeForDigest('\r')).toBe('\n');
  });

  it('the digest trims DONE-marker lines with Go white space (U+0085 yes, BOM no)', () => {
    expect(normalizeForDigest('\u0085<<<LOOP:DONE>>> x\n')).toBe('');
    expect(normalizeForDigest('\uFEFF<<<LOOP:DONE>>> x\n')).toBe('\uFEFF<<<LOOP:DONE>>> x\n');
  });

  it('ProgressTracker treats limits below one as the default', () => {
    expect(new ProgressTracker(0.5).limit).toBe(3);
    expect(new ProgressTracker(Number.NaN).limit).toBe(3);
    expect(new ProgressTracker(Number.POSITIVE_INFINITY).limit).toBe(3);
    expect(new ProgressTracker(2.9).limit).toBe(2);
  });

  it('extractEnvelope reports lines of the reply, not of the text after the preamble', () => {
    const reply = 'hi\nthere\n<<<NSENV:V4:START>>>\n<<<NSENV:V4:ACTIONS>>>\nx\n<<<NSENV:V4:USERDATA>>>\n{}\n<<<NSENV:V4:END>>>\n';
    expect(() => extractEnvelope(reply)).toThrow(
      expect.objectContaining({ code: 'ERR_ENV_ORDER', line: 6, message: expect.stringContaining('USERDATA at line 6 comes after ACTIONS (line 4)') }),
    );
    const ok = extractEnvelope('note\n<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{}\n<<<NSENV:V4:ACTIONS>>>\nc\n<<<NSENV:V4:ACTIONS>>>\n<<<NSENV:V4:END>>>\n');
    expect(ok.lints.find((lint) => lint.code === 'LINT_DUP_SECTION_IGNORED')?.line).toBe(7);
  });

  it('extractEnvelope leaves an ACTIONS section that is only a fence line alone', () => {
    const result = extractEnvelope('<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{}\n<<<NSENV:V4:ACTIONS>>>\n```\n<<<NSENV:V4:END>>>\n');
    expect(result).toEqual({ envelope: { userdata: '{}', scratchpad: null, output: null, actions: '```' }, lints: [] });
  });

  it('composeEnvelope accepts exactly what parseEnvelope accepts at the total limit', () => {
    // Counted size is the text's UTF-8 length less line 1's newline.
    const userdata = (subject: string) => `{"fields":{},"subject":"${subject}"}`;
    const fixed = composeEnvelope({ userdata: userdata('u'), scratchpad: 's', output: 'o', actions: 'c' }).length - 1;
    const extra = MAX_ENVELOPE_BYTES - fixed;
    const third = Math.floor(extra / 3);
    const input = {
      userdata: userdata(`u${'u'.repeat(third)}`),
      scratchpad: `s${'s'.repeat(third)}`,
      output: `o${'o'.repeat(extra - 2 * third)}`,
      actions: 'c',
    };
    const text = composeEnvelope(input);
    expect(text.length - 1).toBe(MAX_ENVELOPE_BYTES);
    expect(parseEnvelope(text).envelope.output).toBe(input.output);
    expect(() => composeEnvelope({ ...input, actions: 'cc' })).toThrow(expect.objectContaining({ code: 'ERR_ENV_SIZE' }));
  });

  it('scanDoneMarker leaves text after a second marker on the same line out of the result', () => {
    expect(scanDoneMarker('<<<LOOP:DONE>>> a <<<LOOP:DONE>>> b').result).toBe('a');
  });

  it('validateUserdata reads only own keys', () => {
    expect(() => validateUserdata(Object.create({ subject: 'x', fields: {} }))).toThrow(expect.objectContaining({ path: '$.subject' }));
  });

  it('EnvelopeStreamParser refuses mixed strings and bytes', () => {
    const parser = new EnvelopeStreamParser();
    parser.push('<<<NSENV:V4:START>>>\n');
    expect(() => parser.push(new Uint8Array([0x41]))).toThrow(TypeError);
  });
});
