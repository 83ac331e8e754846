/**
 * OUTPUT and SCRATCHPAD are capped in UTF-8 bytes, as `Buffer.byteLength`
 * counts them, and a run within both caps is never stopped by the sandbox's
 * backstop on the bytes it sends back (which carry each emit and whisper
 * twice, escaped).
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { utf8Length } from '../evaluate/machine.ts';
import { createSandboxPool } from '../sandbox/index.ts';
import { createInterpreter } from './create-interpreter.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());
const interpreter = createInterpreter({ pool });

describe('utf8Length', () => {
  it('counts as Buffer.byteLength does, lone surrogates included', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => utf8Length(text) === Buffer.byteLength(text)));
    expect(utf8Length('\ud800a')).toBe(4);
    expect(utf8Length('\ud83d\ude00')).toBe(4);
  });
});

describe('the OUTPUT and SCRATCHPAD caps', () => {
  it('lets a run within both caps finish, however its text escapes in JSON (control characters)', async () => {
    const result = await interpreter.run('command\n  set s = char(1) * 400000\n  emit s\n  whisper self, s\n  emit "end"\nendcommand\n');
    expect(result.error).toBeNull();
    expect(result.emits.at(-1)).toBe('end');
    expect(Buffer.byteLength(result.output)).toBe(400_005);
    expect(Buffer.byteLength(result.scratchpad)).toBe(400_001);
  });

  it('counts a lone surrogate as the 3 bytes it takes in UTF-8', async () => {
    // char(55296) is refused (a surrogate is no character); a global can still hold a lone one.
    const result = await interpreter.run('command\n  emit lone * 174763\nendcommand\n', { globals: { lone: '\ud800' } });
    expect(result.error).toMatchObject({ code: 'SCRIPT_OUTPUT_LIMIT' });
  });
});

describe("a tool call's arguments", () => {
  it('are bounded in text, so a string shared many times cannot make the host build a huge copy', async () => {
    const calls: unknown[] = [];
    const tools = { catalog: { get: () => ({ name: 'tool.t.echo', arguments: [], variadic: true }), names: () => ['tool.t.echo'], check: () => undefined }, call: (_name: string, args: unknown) => (calls.push(args), 1) };
    const program = (shares: number) => `command\n  set s = "a" * 1000000\n  set xs = []\n  set i = 0\n  while i < ${shares}\n    set xs[i] = s\n    set i = i + 1\n  endwhile\n  call tool.t.echo(xs)\nendcommand\n`;
    const refused = await interpreter.run(program(50), { tools });
    expect(refused.error).toMatchObject({ code: 'SCRIPT_VALUE_TOO_LARGE', message: expect.stringContaining('characters of text') });
    expect(calls).toEqual([]);
    // Four longest strings fit (the default stringLength is 1 MiB).
    expect((await interpreter.run(program(4), { tools })).error).toBeNull();
    expect(calls).toHaveLength(1);
  });
});
