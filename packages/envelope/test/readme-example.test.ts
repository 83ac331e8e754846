/**
 * The README's Example is run as written, from the one package its Install
 * section adds: it called `model`, `run` and `scratchpad`, which it never
 * defined, so a developer who copied it got a ReferenceError.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const example = /^## Example\n[\s\S]*?^```ts\n([\s\S]*?)^```$/m.exec(README)?.[1] ?? '';
const folder = mkdtempSync(join(tmpdir(), 'askloop-envelope-readme-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('README Example', () => {
  it('imports only @askloop/envelope, the package its Install section adds', () => {
    expect(example).not.toBe('');
    expect([...example.matchAll(/from '([^']+)'/g)].map((match) => match[1])).toEqual(['@askloop/envelope']);
  });

  it('runs, and prints what its comments say', async () => {
    const source = pathToFileURL(fileURLToPath(new URL('../src/index.ts', import.meta.url))).href;
    const file = join(folder, 'example.ts');
    writeFileSync(file, example.replace("from '@askloop/envelope'", `from '${source}'`));
    const printed: unknown[][] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...values: unknown[]) => void printed.push(values));
    try {
      await import(pathToFileURL(file).href);
    } finally {
      log.mockRestore();
    }
    // Each console.log line of the example ends with a comment giving what it prints.
    const promised = [...example.matchAll(/^console\.log\(.*\); \/\/ (.*)$/gm)].map((match) => match[1]);
    expect(printed.map((values) => values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(' '))).toEqual([
      '["LINT_RECOVERED_PREAMBLE"]',
      'true 3',
      'false 64',
    ]);
    expect(promised).toEqual(["[ 'LINT_RECOVERED_PREAMBLE' ]", 'true 3', 'false 64']);
  });
});
