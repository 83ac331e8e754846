/**
 * Packaging promises, for every package of the workspace: a real version (not
 * 0.0.0; versions move through changesets), the LICENSE its manifest names,
 * packed with it and equal to the root one, and a README that does not tell
 * people to install from npm while nothing is published. Regression:
 * @askloop/mcp joined after the packaging fix with version 0.0.0, no LICENSE
 * and `pnpm add @askloop/mcp` as its install step.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const folders = ['packages', 'apps'].flatMap((group) =>
  readdirSync(join(root, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, group, entry.name, 'package.json')))
    .map((entry) => join(group, entry.name)),
);
const rootLicense = readFileSync(join(root, 'LICENSE'), 'utf8');

describe('package manifests and READMEs', () => {
  it('finds the workspace packages', () => {
    expect(folders).toEqual(expect.arrayContaining(['packages/interpreter', 'packages/mcp', 'apps/demo']));
  });

  it.each(folders)('%s: a real version, MIT with the LICENSE file packed, an honest install section', (folder) => {
    const manifest = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as { version: string; license: string; files: string[] };
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(manifest.version).not.toBe('0.0.0');
    expect(manifest.license).toBe('MIT');
    expect(manifest.files).toEqual(expect.arrayContaining(['dist', 'README.md', 'LICENSE']));
    expect(readFileSync(join(root, folder, 'LICENSE'), 'utf8')).toBe(rootLicense);
    const readme = readFileSync(join(root, folder, 'README.md'), 'utf8');
    // Until a release publishes them, an install step from the registry would fail.
    expect(readme).not.toMatch(/^\s*(pnpm add|npm (install|i)|yarn add)\s+(-\S+\s+)*@?askloop/m);
    expect(readme).toMatch(/not yet published/i);
  });
});
