import { describe, expect, it } from 'vitest';
import { parse } from '../parse/index.ts';
import { createInterpreter } from './create-interpreter.ts';
import { createParseCache } from './parse-cache.ts';

const source = (text: string) => `command\n  emit "${text}"\nendcommand\n`;

describe('createParseCache', () => {
  it('returns what parse returns, the first time and from the cache', async () => {
    const cached = createParseCache(4);
    const first = await cached(source('a'), undefined);
    const second = await cached(source('a'), undefined);
    expect(first).toEqual(parse(source('a')));
    expect(second).toEqual(first);
  });

  it('hands out copies: changing a returned program does not change the next', async () => {
    const cached = createParseCache(4);
    const first = await cached(source('a'), undefined);
    if (!first.ok) throw new Error('expected a program');
    (first.program.commands as unknown[]).length = 0;
    const second = await cached(source('a'), undefined);
    expect(second.ok && second.program.commands.length).toBe(1);
  });

  it('keys by file name too, since it is copied into the program', async () => {
    const cached = createParseCache(4);
    const plain = await cached(source('a'), undefined);
    const named = await cached(source('a'), 'turn.ns');
    expect(plain.ok && plain.program.fileName).toBeUndefined();
    expect(named.ok && named.program.fileName).toBe('turn.ns');
  });

  it('does not keep failures: the same bad source gives the same diagnostics each time', async () => {
    const cached = createParseCache(4);
    const bad = 'command\n  emit (\nendcommand\n';
    expect(await cached(bad, undefined)).toEqual(parse(bad));
    expect(await cached(bad, undefined)).toEqual(parse(bad));
  });
});

describe('prepare with the parse cache', () => {
  it('still checks a cached program against the catalogue of this call', async () => {
    const interpreter = createInterpreter();
    const program = 'command\n  emit tool.str.ToUpper("x")\nendcommand\n';
    const allowed = {
      get: (name: string) => (name.toLowerCase() === 'tool.str.toupper' ? { name: 'tool.str.toupper', arguments: [{ name: 'input_string', type: 'string' as const, required: true }] } : undefined),
      names: () => ['tool.str.toupper'],
    };
    const denied = { ...allowed, check: (name: string) => ({ code: 'POLICY_NOT_ALLOWED', message: `${name} is not allowed` }) };
    expect((await interpreter.prepare(program, { catalog: allowed })).ok).toBe(true);
    const second = await interpreter.prepare(program, { catalog: denied });
    expect(second.ok).toBe(false);
    expect(second.diagnostics[0]?.message).toContain('not allowed');
  });
});
