/**
 * The interpreter README's examples are run as written, in a project that has
 * the packages its Install section adds: the Example imported
 * `@askloop/tools`, which the Install section did not add, so a project
 * following it could not resolve the import; the Sandbox example used
 * `evaluatorSource`, `program` and `host` without defining them. They live
 * here because the Example imports `@askloop/tools`, which the interpreter
 * may not (scripts/check-dependency-direction.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';

const README = readFileSync(new URL('../../../packages/interpreter/README.md', import.meta.url), 'utf8');
/** The first TypeScript block of the README's section `heading` (a level-2 heading). */
const firstTsBlock = (heading: string) => new RegExp(`^## ${heading}\\n[\\s\\S]*?^\`\`\`ts\\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(README)?.[1] ?? '';
const example = firstTsBlock('Example');
const sandboxExample = firstTsBlock('Sandbox');
const install = /^## Install\n[\s\S]*?^```sh\n([\s\S]*?)^```$/m.exec(README)?.[1] ?? '';
const folder = mkdtempSync(join(tmpdir(), 'askloop-interpreter-readme-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The packages an example imports. */
const importsOf = (code: string) => [...code.matchAll(/from '([^']+)'/g)].map((match) => match[1]!);
const imported = importsOf(example);
/** Where each package's source is, for running the example from this workspace. */
const sourceOf = (name: string) => pathToFileURL(fileURLToPath(new URL(`../../../packages/${name.replace('@askloop/', '')}/src/index.ts`, import.meta.url))).href;

describe('the interpreter README Example', () => {
  it('imports only packages its Install section adds', () => {
    expect(imported).toEqual(['@askloop/interpreter', '@askloop/tools']);
    const added = [...install.matchAll(/^pnpm add \/path\/to\/askloop\/packages\/(\S+)/gm)].map((match) => `@askloop/${match[1]}`);
    for (const name of imported) expect(added, `${name} is imported but the Install section does not add it`).toContain(name);
  });

  it('runs and prints HI, as its text says', async () => {
    expect((await runExample('example.ts', example)).map((values) => values.join(' '))).toEqual(['HI']);
  });
});

describe('the interpreter README Sandbox example', () => {
  it('imports only the interpreter, and defines everything it uses', () => {
    expect(importsOf(sandboxExample)).toEqual(['@askloop/interpreter']);
  });

  it("runs and prints the bundle's progress event, then its result, as its text says", async () => {
    expect(await runExample('sandbox-example.ts', sandboxExample)).toEqual([['progress', { step: 'adding' }], [{ sum: 5 }]]);
  });
});

/** Runs `code` as a module of its own, the packages it imports taken from this workspace: what it logs, call by call. */
async function runExample(fileName: string, code: string): Promise<unknown[][]> {
  const file = join(folder, fileName);
  writeFileSync(file, importsOf(code).reduce((text, name) => text.replace(`from '${name}'`, `from '${sourceOf(name)}'`), code));
  const printed: unknown[][] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...values: unknown[]) => void printed.push(values));
  try {
    await import(pathToFileURL(file).href);
  } finally {
    log.mockRestore();
  }
  return printed;
}
