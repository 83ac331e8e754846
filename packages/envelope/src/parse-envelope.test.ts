import { describe, expect, it } from 'vitest';
import { isEnvelopeError } from './errors.ts';
import { parseEnvelope } from './parse-envelope.ts';

const envelope = (...lines: string[]) => `${lines.join('\n')}\n`;
const START = '<<<NSENV:V4:START>>>';
const USERDATA = '<<<NSENV:V4:USERDATA>>>';
const ACTIONS = '<<<NSENV:V4:ACTIONS>>>';
const END = '<<<NSENV:V4:END>>>';

function errorOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (isEnvelopeError(error)) return error;
    throw error;
  }
  throw new Error('expected an envelope error');
}

describe('parseEnvelope', () => {
  it('says what it expected and found when line 1 is not START', () => {
    const error = errorOf(() => parseEnvelope('Sure! Here is the envelope:\n'));
    expect(error.code).toBe('ERR_ENV_MARKERS_INVALID');
    expect(error.line).toBe(1);
    expect(error.message).toContain('"Sure! Here is the envelope:"');
    expect(error.message).toContain(START);
  });

  it('names the lines of both sections when the order is wrong', () => {
    const error = errorOf(() => parseEnvelope(envelope(START, USERDATA, '{}', ACTIONS, 'command', '<<<NSENV:V4:OUTPUT>>>', 'x', END)));
    expect(error.code).toBe('ERR_ENV_ORDER');
    expect(error.message).toBe(
      'section OUTPUT at line 6 comes after ACTIONS (line 4); the order is USERDATA, [SCRATCHPAD], [OUTPUT], ACTIONS',
    );
  });

  it('tells how to fix a missing ACTIONS section', () => {
    const error = errorOf(() => parseEnvelope(envelope(START, USERDATA, '{}', END)));
    expect(error.code).toBe('ERR_ENV_SECTION_MISSING');
    expect(error.message).toContain('command … endcommand');
  });

  it('serialises errors as plain data', () => {
    const error = errorOf(() => parseEnvelope(envelope(START, USERDATA, '{}', ACTIONS, 'x')));
    expect(JSON.parse(JSON.stringify(error))).toEqual({ code: 'ERR_ENV_MARKERS_INVALID', message: error.message, line: 5 });
  });

  it('reports invalid UTF-8 with its byte offset and line', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode(`${START}\n${USERDATA}\n`), 0xe2, 0x82, 0x0a]);
    const error = errorOf(() => parseEnvelope(bytes));
    expect(error.code).toBe('ERR_ENV_ENCODING');
    expect(error.message).toContain('byte offset 45');
    expect(error.line).toBe(3);
  });

  it('keeps a lone carriage return inside a line', () => {
    const result = parseEnvelope(envelope(START, USERDATA, 'a\rb', ACTIONS, 'c', END));
    expect(result.envelope.userdata).toBe('a\rb');
  });

  it('treats a marker line with surrounding white space as a marker', () => {
    const result = parseEnvelope(envelope(`  ${START}\t`, ` ${USERDATA}`, '{}', `\t${ACTIONS}  `, 'c', ` ${END} `));
    expect(result.envelope).toEqual({ userdata: '{}', scratchpad: null, output: null, actions: 'c' });
  });
});
