import { describe, expect, it } from 'vitest';
import { canonicalToolName, matchToolGlob } from './tool-glob.ts';

describe('canonicalToolName', () => {
  it.each([
    ['str.ToUpper', 'tool.str.toupper'],
    ['tool.STR.toupper', 'tool.str.toupper'],
    ['tool.tool.x.y', 'tool.x.y'],
    [' Tool.FDM.Plan.Make ', 'tool.fdm.plan.make'],
  ])('%j → %j', (name, canonical) => expect(canonicalToolName(name)).toBe(canonical));
});

describe('matchToolGlob', () => {
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
    ['tool.s?r.x', 'tool.str.x', false],
    ['tool.(a).x', 'tool.(a).x', true],
  ])('%j matches %j: %s', (pattern, name, expected) => expect(matchToolGlob(pattern, name)).toBe(expected));
});
