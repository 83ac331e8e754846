import { describe, expect, it } from 'vitest';
import { canonicalToolPattern, compileToolPattern } from './tool-pattern.ts';

describe('tool-name patterns', () => {
  it.each([
    ['tool.str.*', 'tool.str.*'],
    ['str.*', 'tool.str.*'],
    ['TOOL.Str.ToUpper', 'tool.str.toupper'],
    ['tool.tool.str.*', 'tool.str.*'],
    ['*', '**'],
    ['**', '**'],
    ['**.length', 'tool.**.length'],
    ['*.length', 'tool.*.length'],
  ])('canonicalises %s → %s', (input, output) => {
    expect(canonicalToolPattern(input)).toBe(output);
  });

  it.each(['', 'tool..x', 'tool.str.', 'tool.str.(a)', 'tool.str.a b', 'tool/str/*', 'tool.s?r.x'])('rejects %j', (input) => {
    expect(() => canonicalToolPattern(input)).toThrow(expect.objectContaining({ code: 'POLICY_PATTERN_INVALID' }));
  });

  // The table the interpreter's own glob once had (its static check now asks this policy), minus the patterns this
  // package rejects up front, plus tricky cases.
  it.each([
    ['*', 'tool.str.toupper', true],
    ['**', 'tool.a.b.c', true],
    ['tool.str.*', 'tool.str.toupper', true],
    ['tool.str.*', 'tool.strings.toupper', false],
    ['str.*', 'tool.str.toupper', true],
    ['TOOL.Str.*', 'tool.str.ToUpper', true],
    ['tool.*.toupper', 'tool.str.toupper', true],
    ['tool.*.*', 'tool.fdm.plan.make', false],
    ['tool.fdm.**', 'tool.fdm.plan.make', true],
    ['tool.**.make', 'tool.fdm.plan.make', true],
    ['tool.str.to*', 'tool.str.toupper', true],
    ['tool.str.to*', 'tool.str.trim', false],
    ['tool.str.toupper', 'tool.str.toupper', true],
    ['tool.str.toupper', 'tool.str.toupperx', false],
    ['tool.*', 'tool.str.length', false],
    ['tool.**', 'tool.str.length', true],
    ['*.length', 'tool.list.length', true],
    ['**.length', 'tool.list.length', true],
    ['**.length', 'tool.list.lengthy', false],
    ['tool.str.*', 'tool.str.a.b', false],
    ['tool.s*', 'tool.str.length', false],
    ['tool.s**', 'tool.str.length', true],
    ['tool.str.*pp*', 'tool.str.toupper', true],
    ['tool.str.len.th', 'tool.str.length', false],
    ['tool.fdm.*', 'tool.fdm.plan.run', false],
  ])('%j matches %j: %s', (pattern, name, expected) => {
    expect(compileToolPattern(pattern).matches(name)).toBe(expected);
  });

  it('matches a long name against a many-`**` pattern without backtracking', () => {
    expect(compileToolPattern('tool.**a**a**a**a**b').matches(`tool.${'a.'.repeat(20_000)}c`)).toBe(false);
  });
});
