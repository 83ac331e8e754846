/**
 * The interpreter README's Example is run as written, in a project that has
 * the packages its Install section adds: it imported `@askloop/tools`, which
 * the Install section did not add, so a project following it could not
 * resolve the import. It lives here because the interpreter may not import
 * `@askloop/tools` (scripts/check-dependency-direction.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';

const README = readFileSync(new URL('../../../packages/interpreter/README.md', import.meta.url), 'utf8');
const example = /^## Example\n[\s\S]*?^```ts\n([\s\S]*?)^```$/m.exec(README)?.[1] ?? '';
const install = /^## Install\n[\s\S]*?^```sh\n([\s\S]*?)^```$/m.exec(README)?.[1] ?? '';
const folder = mkdtempSync(join(tmpdir(), 'askloop-interpreter-readme-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The packages the example imports. */
const imported = [...example.matchAll(/from '([^']+)'/g)].map((match) => match[1]!);
/** Where each package's source is, for running the example from this workspace. */
const sourceOf = (name: string) => pathToFileURL(fileURLToPath(new URL(`../../../packages/${name.replace('@askloop/', '')}/src/index.ts`, import.meta.url))).href;

describe('the interpreter README Example', () => {
  it('imports only packages its Install section adds', () => {
    expect(imported).toEqual(['@askloop/interpreter', '@askloop/tools']);
    const added = [...install.matchAll(/^pnpm add \/path\/to\/askloop\/packages\/(\S+)/gm)].map((match) => `@askloop/${match[1]}`);
    for (const name of imported) expect(added, `${name} is imported but the Install section does not add it`).toContain(name);
  });

  it('runs and prints HI, as its text says', async () => {
    const file = join(folder, 'example.ts');
    writeFileSync(file, imported.reduce((text, name) => text.replace(`from '${name}'`, `from '${sourceOf(name)}'`), example));
    const printed: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...values: unknown[]) => void printed.push(values.join(' ')));
    try {
      await import(pathToFileURL(file).href);
    } finally {
      log.mockRestore();
    }
    expect(printed).toEqual(['HI']);
  });
});
