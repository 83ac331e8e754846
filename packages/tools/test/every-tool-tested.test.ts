/**
 * Guard for "every built-in tool has tests": each built-in tool must be
 * named in some test file, by display name (`tool.str.Length`) or as a
 * table row of its pack's test (`['Length', ...]` / `['str.Length', ...]`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../src/packs/default-registry.ts';

const sourceRoot = fileURLToPath(new URL('../src', import.meta.url));
const testText = readdirSync(sourceRoot, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => readFileSync(path.join(sourceRoot, file), 'utf8'))
  .join('\n');

describe('every built-in tool has tests', () => {
  const specs = createDefaultRegistry({ fs: { root: '/tmp' }, http: {} }).specs();
  it.each(specs.map((spec) => [spec.displayName, spec] as const))('%s', (displayName, spec) => {
    const shortName = displayName.slice(displayName.lastIndexOf('.') + 1);
    const mentioned = [displayName, `['${spec.group}.${shortName}',`, `['${shortName}',`].some((needle) => testText.includes(needle));
    expect(mentioned).toBe(true);
  });
});
