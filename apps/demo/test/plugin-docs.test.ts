/**
 * The examples of docs/writing-tool-packs.md and docs/writing-provider-plugins.md
 * are real code: each ```ts block marked `file=NAME` must equal
 * test/docs-examples/<guide>/NAME — files the package's typecheck compiles —
 * and the guide's `try-…` file is run here (its assertions are the
 * example's contract: a real loop through createAskLoop, the real sandbox and,
 * for the provider, a real loopback HTTP server).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const GUIDES = ['writing-tool-packs', 'writing-provider-plugins'] as const;

/** The `file=NAME` code blocks of a guide, by name. */
function codeBlocks(markdown: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const match of markdown.matchAll(/^```ts file=(\S+)\n([\s\S]*?)^```$/gm)) blocks.set(match[1] as string, match[2] as string);
  return blocks;
}

describe.each(GUIDES)('docs/%s.md', (guide) => {
  const markdown = readFileSync(new URL(`../../../docs/${guide}.md`, import.meta.url), 'utf8');
  const folder = new URL(`./docs-examples/${guide}/`, import.meta.url);
  const files = readdirSync(folder).sort();

  it('shows every example file, exactly as compiled', () => {
    const blocks = codeBlocks(markdown);
    expect([...blocks.keys()].sort()).toEqual(files);
    for (const file of files) expect(blocks.get(file), `${guide}.md block file=${file}`).toBe(readFileSync(new URL(file, folder), 'utf8'));
  });

  it('links only inside the repository', () => {
    expect(markdown).not.toMatch(/\]\((?:https?:)?\/\//);
    expect(markdown).not.toMatch(/\]\([^)]*shared\//);
  });

  it('runs its example', async () => {
    const runner = files.find((file) => file.startsWith('try-'));
    expect(runner).toBeDefined();
    // The example asserts its own outcome (node:assert); importing it runs it.
    await import(new URL(runner as string, folder).href);
  });
});
