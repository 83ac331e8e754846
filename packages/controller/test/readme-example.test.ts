/**
 * The README's Example is run as written, from the one package its Install
 * section adds: it imported `createScriptedProvider` from `@askloop/providers`,
 * which a project with only `@askloop/controller` installed cannot resolve.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const example = /^## Example\n+```ts\n([\s\S]*?)^```$/m.exec(README)?.[1] ?? '';
const folder = mkdtempSync(join(tmpdir(), 'askloop-controller-readme-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('README Example', () => {
  it('imports only @askloop/controller, the package its Install section adds', () => {
    expect(example).not.toBe('');
    expect([...example.matchAll(/from '([^']+)'/g)].map((match) => match[1])).toEqual(['@askloop/controller']);
  });

  it('runs, and ends as its comments say', async () => {
    const source = pathToFileURL(fileURLToPath(new URL('../src/index.ts', import.meta.url))).href;
    const file = join(folder, 'example.ts');
    writeFileSync(file, `${example.replace("from '@askloop/controller'", `from '${source}'`)}\nexport { result, report };\n`);
    const { result, report } = (await import(pathToFileURL(file).href)) as { result: Record<string, unknown>; report: Record<string, unknown> };
    expect(result).toMatchObject({ status: 'DONE', reason: null, result: 'HELLO', turns: 1, decisions: [{ turn: 1, decision: 'DONE', reason: null }] });
    expect(report).toMatchObject({ matched: true, divergence: null });
  });
});
