import { describe, expect, it } from 'vitest';
import { jsonErrorPlace } from './json-error-place.ts';

const faultOf = (text: string) => {
  try {
    JSON.parse(text);
  } catch (error) {
    return jsonErrorPlace(text, error);
  }
  throw new Error('expected the text to be refused');
};

describe('jsonErrorPlace', () => {
  it("makes V8's message one line (it quoted the text around the fault, line breaks and all)", () => {
    expect(faultOf('["a",\n  b]').message).not.toMatch(/\n/);
  });

  it('gives the line and column where the YAML parser finds the fault', () => {
    expect(faultOf('["a",\n  "b"\n')).toMatchObject({ line: 3, column: 1 });
    expect(faultOf('{"a": [1, 2}')).toMatchObject({ line: 1 });
  });
});
