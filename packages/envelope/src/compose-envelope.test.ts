import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEnvelopeError } from './errors.ts';
import { validateUserdata } from './userdata.ts';
import { composeEnvelope, neutralizeMarkerLines } from './compose-envelope.ts';
import { extractEnvelope } from './extract-envelope.ts';
import { parseEnvelope } from './parse-envelope.ts';
import { EnvelopeStreamParser } from './envelope-stream-parser.ts';
import { scanDoneMarker } from './loop-control-v4.ts';

/** USERDATA of the one shape the spec allows (seed 003 §3.5). */
const U = '{"subject":"s","fields":{}}';

describe('composeEnvelope', () => {
  it('writes every marker and body on its own line and omits empty optional sections', () => {
    expect(composeEnvelope({ userdata: '{"subject":"s","fields":{}}', scratchpad: '', output: 'hi', actions: 'command\nendcommand' })).toBe(
      '<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{"subject":"s","fields":{}}\n<<<NSENV:V4:OUTPUT>>>\nhi\n<<<NSENV:V4:ACTIONS>>>\ncommand\nendcommand\n<<<NSENV:V4:END>>>\n',
    );
  });

  it('writes USERDATA given as an object as canonical JSON', () => {
    const text = composeEnvelope({ userdata: { subject: 's', fields: { b: 1, a: 2 } }, actions: 'x' });
    expect(parseEnvelope(text).envelope.userdata).toBe('{"fields":{"a":2,"b":1},"subject":"s"}');
  });

  it('refuses empty USERDATA or ACTIONS', () => {
    expect(() => composeEnvelope({ userdata: '', actions: 'x' })).toThrow(expect.objectContaining({ code: 'ERR_ENV_SECTION_MISSING' }));
    expect(() => composeEnvelope({ userdata: U, actions: '' })).toThrow(expect.objectContaining({ code: 'ERR_ENV_SECTION_MISSING' }));
  });

  // Review: a body of white space alone composed, and the other side read the required section as empty.
  it('refuses USERDATA or ACTIONS of white space alone, which would read back as empty', () => {
    for (const blank of ['  ', '\n', ' \t\r\n  ']) {
      expect(() => composeEnvelope({ userdata: blank, actions: 'x' })).toThrow(
        expect.objectContaining({ code: 'ERR_ENV_SECTION_MISSING', message: expect.stringContaining('USERDATA: the text given holds only white space') }),
      );
      expect(() => composeEnvelope({ userdata: U, actions: blank })).toThrow(
        expect.objectContaining({ code: 'ERR_ENV_SECTION_MISSING', message: expect.stringContaining('ACTIONS: the text given holds only white space') }),
      );
    }
    // An optional section of white space alone still composes; it reads back as empty, as the parser reads any.
    expect(parseEnvelope(composeEnvelope({ userdata: U, output: '  ', actions: 'x' })).envelope.output).toBe('');
  });

  it('refuses a body line that is a marker, which would end the section early', () => {
    expect(() => composeEnvelope({ userdata: U, output: 'ok\n  <<<NSENV:V4:ACTIONS>>>', actions: 'x' })).toThrow(
      expect.objectContaining({ code: 'ERR_ENV_MARKERS_INVALID', message: expect.stringContaining('section OUTPUT line 2') }),
    );
  });

  it('composes program output safely once marker lines are neutralized', () => {
    const output = neutralizeMarkerLines('ok\n<<<NSENV:V4:ACTIONS>>>\ncommand\nendcommand');
    const parsed = parseEnvelope(composeEnvelope({ userdata: U, output, actions: 'real' }));
    expect(parsed.envelope.actions).toBe('real');
    expect(parsed.envelope.output).toBe('ok\n\\<<<NSENV:V4:ACTIONS>>>\ncommand\nendcommand');
  });

  it('refuses a section over 512 KiB of UTF-8', () => {
    expect(() => composeEnvelope({ userdata: U, output: 'é'.repeat(262_144), actions: 'x' })).toThrow(
      expect.objectContaining({ code: 'ERR_ENV_SIZE' }),
    );
  });
});

// Review: USERDATA was written unchecked ('{}', 'not json', [1]), an envelope whose USERDATA the spec refuses.
describe('composeEnvelope and the USERDATA schema', () => {
  const refusal = (userdata: unknown) => {
    try {
      composeEnvelope({ userdata: userdata as string, actions: 'x' });
    } catch (error) {
      if (!isEnvelopeError(error)) throw error;
      return { code: error.code, path: error.path, message: error.message };
    }
    return undefined;
  };

  it('refuses USERDATA that is not { subject, brief?, fields }, as text or as an object, naming the path', () => {
    expect(refusal('{}')).toEqual({ code: 'ERR_USERDATA_SCHEMA', path: '$.subject', message: 'USERDATA is missing "subject" (a string) (at $.subject)' });
    expect(refusal('not json')).toMatchObject({ code: 'ERR_USERDATA_SCHEMA', path: '$', message: expect.stringMatching(/^USERDATA is not valid JSON/) });
    expect(refusal({ subject: 's' })).toMatchObject({ code: 'ERR_USERDATA_SCHEMA', path: '$.fields' });
    expect(refusal({ subject: 's', brief: null, fields: {} })).toMatchObject({ code: 'ERR_USERDATA_SCHEMA', path: '$.brief' });
    expect(refusal([1])).toMatchObject({ code: 'ERR_USERDATA_SCHEMA', path: '$', message: 'USERDATA must be a JSON object, found an array (at $)' });
    expect(refusal('{"subject":"s","fields":[]}')).toMatchObject({ code: 'ERR_USERDATA_SCHEMA', path: '$.fields' });
    // The checks that come first keep their codes: empty and white space alone are a missing section.
    expect(refusal('  ')).toMatchObject({ code: 'ERR_ENV_SECTION_MISSING' });
  });

  it('accepts USERDATA exactly when validateUserdata does, as text or as an object, and the USERDATA it writes validates', () => {
    const shaped = fc.record({ subject: fc.oneof(fc.string(), fc.integer(), fc.constant(null)), brief: fc.oneof(fc.string(), fc.constant(null)), fields: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 })), fc.array(fc.integer()), fc.string()) }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.oneof(shaped, fc.jsonValue({ maxDepth: 2 })), fc.boolean(), (value, asText) => {
        const userdata = asText ? JSON.stringify(value) : value;
        let valid = true;
        try {
          validateUserdata(userdata);
        } catch {
          valid = false;
        }
        // Object input takes only objects (anything else is a TypeError, as before); text takes any JSON text.
        if (!asText && (typeof value !== 'object' || value === null)) return;
        const outcome = refusal(userdata);
        if (valid) {
          expect(outcome).toBeUndefined();
          expect(() => validateUserdata(parseEnvelope(composeEnvelope({ userdata: userdata as string, actions: 'x' })).envelope.userdata)).not.toThrow();
        } else expect(outcome?.code).toBe('ERR_USERDATA_SCHEMA');
      }),
      { numRuns: 500 },
    );
  });
});

describe('arguments of the wrong type (a JavaScript caller)', () => {
  it('are TypeErrors naming the argument, not crashes inside the codec', () => {
    expect(() => composeEnvelope({ userdata: '{"subject":"s","fields":{}}', actions: 5 as unknown as string })).toThrow(new TypeError('composeEnvelope: actions must be a string, got number'));
    expect(() => composeEnvelope({ userdata: 7 as unknown as string, actions: 'x' })).toThrow(new TypeError('composeEnvelope: userdata must be a JSON object or its text, got number'));
    expect(() => extractEnvelope(42 as unknown as string)).toThrow(new TypeError('extractEnvelope takes the reply as a string, got number'));
    expect(() => parseEnvelope(null as unknown as string)).toThrow(new TypeError('parseEnvelope takes the reply as a string or UTF-8 bytes, got null'));
    // Walkthrough: these failed inside the codec ("Cannot read properties of undefined", "output.join is not a function").
    expect(() => composeEnvelope(undefined as never)).toThrow(new TypeError('composeEnvelope takes { userdata, scratchpad?, output?, actions? }, got undefined'));
    expect(() => scanDoneMarker(5 as never)).toThrow(new TypeError('scanDoneMarker takes OUTPUT as a string or a list of lines, got number'));
    expect(() => new EnvelopeStreamParser().push(5 as never)).toThrow(new TypeError('EnvelopeStreamParser: push takes a string or UTF-8 bytes, got number'));
    expect(() => extractEnvelope('command\n  emit 1\nendcommand\n', { userdata: 5 as never })).toThrow(new TypeError("extractEnvelope: options.userdata must be USERDATA's JSON text, got number"));
  });

  it("extractEnvelope refuses options that are no object or a misspelt one (review: null failed inside, a misspelt userdata was ignored and the host's USERDATA not used)", () => {
    const bare = 'command\n  emit 1\nendcommand\n';
    expect(() => extractEnvelope(bare, null as never)).toThrow(new TypeError('extractEnvelope: options must be an object { userdata? }, got null'));
    expect(() => extractEnvelope(bare, 5 as never)).toThrow(new TypeError('extractEnvelope: options must be an object { userdata? }, got number'));
    expect(() => extractEnvelope(bare, { userdat: U } as never)).toThrow(new TypeError("extractEnvelope: unknown option 'userdat'; the only option is userdata (USERDATA's JSON text)"));
    expect(extractEnvelope(bare, { userdata: U }).envelope.userdata).toBe(U);
    expect(extractEnvelope(bare, {}).envelope.userdata).toBe('{}');
  });
});
