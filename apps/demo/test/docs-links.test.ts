/**
 * The repository's Markdown never points outside the repository: every link
 * is relative (or an anchor) and names a file or folder that exists here (and
 * a heading of it, when the link has an anchor), and no text names a path
 * above the clone (`../shared/…`), which a reader of the repository does not
 * have. Nor does it cite what a reader cannot see: the internal design specs
 * the project started from, their section numbers, issue numbers, or rounds
 * of development.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SKIP = new Set(['node_modules', '.git', 'dist', '.turbo', '.reports', '.changeset']);

/** The anchors GitHub gives the headings of a Markdown text (fenced code left out). */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.*)$/gm)) {
    const text = match[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text.trim().toLowerCase().replace(/[^\p{L}\p{N}_\- ]/gu, '').replaceAll(' ', '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Text a reader cannot follow: internal spec names and sections, issue numbers, development rounds, files that are not here. */
const INTERNAL_REFERENCE = /\b[Ss]eeds? 00[0-4]|§|\bIssue \d+|\b[Rr]ound \d+\b|aprice2704|docs\/TODO\.md|ask_disc\.md/g;

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
        if (target.startsWith('#')) {
          if (!headingAnchors(text).has(target.slice(1))) bad.push(`${relative(ROOT, file)}: ${target} (no such heading)`);
          continue;
        }
        const [targetPath = '', anchor] = target.split('#');
        const path = resolve(dirname(file), targetPath);
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || relative(ROOT, path).startsWith('..') || !existsSync(path)) bad.push(`${relative(ROOT, file)}: ${target}`);
        else if (anchor !== undefined && path.endsWith('.md') && !headingAnchors(readFileSync(path, 'utf8')).has(anchor)) bad.push(`${relative(ROOT, file)}: ${target} (no such heading)`);
      }
      for (const match of text.matchAll(/`\.\.\/shared\/[^`]*`/g)) bad.push(`${relative(ROOT, file)}: ${match[0]}`);
    }
    expect(bad).toEqual([]);
  });

  it('cites no internal design spec, section number, issue number or development round', () => {
    const bad: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(INTERNAL_REFERENCE)) bad.push(`${relative(ROOT, file)}:${text.slice(0, match.index).split('\n').length}: ${match[0]}`);
    }
    expect(bad).toEqual([]);
  });
});
