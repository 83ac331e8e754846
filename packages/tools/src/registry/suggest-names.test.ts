/**
 * "Did you mean" for unknown tool names: a misspelling, the same tool in a
 * group spelt another way, or a tool of the same group with a similar name —
 * never another group's tool that only shares the name (`tool.fs.Read` is not
 * `tool.capsule.Read`: a model told so reads the wrong thing).
 */
import { describe, expect, it } from 'vitest';
import { suggestNames } from './suggest-names.ts';

const NAMES = ['tool.str.toupper', 'tool.str.tolower', 'tool.str.split', 'tool.capsule.read', 'tool.capsule.list', 'tool.math.sqrt', 'tool.math.pow', 'tool.fs.write'];

describe('suggestNames', () => {
  it.each([
    ['a misspelt name, closest first', 'tool.str.touper', ['tool.str.toupper', 'tool.str.tolower']],
    ['the same tool in a group spelt another way', 'tool.string.toupper', ['tool.str.toupper']],
    ['a longer spelling of the group', 'tool.strings.split', ['tool.str.split']],
    ['a same-group tool sharing five characters', 'tool.str.uppercase', ['tool.str.toupper']],
    ["nothing for another group's tool of the same name", 'tool.fs.read', []],
    ['nothing for a name nothing resembles', 'tool.web.search', []],
    ['a close name in a group that exists', 'tool.math.sqr', ['tool.math.sqrt']],
  ])('%s: %s', (_, name, expected) => {
    expect(suggestNames(name, NAMES)).toEqual(expected);
  });

  it('orders by distance and stops at the limit', () => {
    expect(suggestNames('tool.str.to', ['tool.str.tox', 'tool.str.toxy', 'tool.str.t'], 2)).toEqual(['tool.str.t', 'tool.str.tox']);
  });
});
