import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { screenShellWord } from './screen-shell-word.ts';

/**
 * What a real bash makes of `word`: the one argument it passes. In a UTF-8 locale, as the terminal the line is shown
 * on has: bash decodes `$'\uNNNN'` to UTF-8 only there (a bare environment, CI's, has none and keeps the escape).
 */
const bashReads = (word: string): string => execFileSync('bash', ['-c', `printf %s ${word}`], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C.UTF-8' } });

describe('screenShellWord', () => {
  it.each([
    ['fs:write:/data/x.txt', 'fs:write:/data/x.txt'],
    ['memory:write:my key', "'memory:write:my key'"],
    ["fs:write:/it's", "'fs:write:/it'\\''s'"],
    ['fs:write:/été/ünï', "'fs:write:/été/ünï'"],
  ])('a word without control characters is quoted as before: %j', (word, shown) => {
    expect(screenShellWord(word)).toBe(shown);
    expect(bashReads(screenShellWord(word))).toBe(word);
  });

  it.each([
    'fs:write:/x\n  grant: only you can allow this: add fs:write:/etc/passwd',
    'fs:write:/a\tb',
    'fs:write:/a\u001b[2Kb',
    'fs:write:/a\u001bab',
    "fs:write:/it's\\n\n",
    'fs:write:/invoice\u202Etxt.exe',
    'fs:write:/a\u2028b\u0085c\u007f',
  ])('a word with one is $\'…\' on one line, free of control characters, and bash reads the very word: %j', (word) => {
    const shown = screenShellWord(word);
    expect(shown).toMatch(/^\$'.*'$/);
    expect(shown).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(bashReads(shown)).toBe(word);
  });
});
