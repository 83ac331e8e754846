/**
 * The repository's Markdown never points outside the repository: every link
 * is relative (or an anchor) and names a file or folder that exists here,
 * and no text names a path above the clone (`../shared/…`), which a reader
 * of the repository does not have.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SKIP = new Set(['node_modules', '.git', 'dist', '.turbo', '.reports', '.changeset']);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

describe('the docs stay inside the repository', () => {
  const files = markdownFiles(ROOT);

  it('finds the docs', () => {
    expect(files.map((file) => relative(ROOT, file))).toEqual(expect.arrayContaining(['README.md', 'apps/demo/README.md', 'docs/deviations.md']));
  });

  it('links only to files of the repository, never to a web address or above the clone', () => {
    const bad: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1]!;
        if (target.startsWith('#')) continue;
        const path = resolve(dirname(file), target.split('#')[0]!);
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || relative(ROOT, path).startsWith('..') || !existsSync(path)) bad.push(`${relative(ROOT, file)}: ${target}`);
      }
      for (const match of text.matchAll(/`\.\.\/shared\/[^`]*`/g)) bad.push(`${relative(ROOT, file)}: ${match[0]}`);
    }
    expect(bad).toEqual([]);
  });
});
