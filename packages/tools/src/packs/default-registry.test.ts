import { describe, expect, it } from 'vitest';
import type { ToolCatalog } from '@askloop/interpreter';
import { createPolicy } from '../policy/policy.ts';
import { defineToolPack } from '../registry/tool-pack.ts';
import { defineTool } from '../spec/define-tool.ts';
import { createDefaultRegistry } from './default-registry.ts';

describe('createDefaultRegistry', () => {
  it('registers every safe pack, and fs/http only when configured', () => {
    const registry = createDefaultRegistry();
    expect(registry.packs()).toEqual(['str', 'list', 'math', 'json', 'map', 'time', 'system', 'memory', 'scratch', 'policy', 'capsule']);
    expect(registry.get('tool.fs.Read')).toBeUndefined();
    const full = createDefaultRegistry({ fs: { root: '/tmp' }, http: {}, extraPacks: [defineToolPack('extra', [defineTool({ name: 'tool.extra.X', description: 'x' }, () => null)])] });
    expect(full.packs().slice(-3)).toEqual(['fs', 'http', 'extra']);
    expect(full.get('tool.http.fetch')?.effect).toBe('external');
  });

  it('is a ToolCatalog whose names are canonical and sorted', () => {
    const catalog: ToolCatalog = createDefaultRegistry();
    const names = catalog.names();
    expect([...names].sort()).toEqual(names);
    expect(names.every((name) => name === name.toLowerCase() && name.startsWith('tool.'))).toBe(true);
    expect(catalog.get('STR.SUBSTRING')?.arguments).toEqual([
      { name: 'input_string', type: 'string', required: true, description: 'The text to work on.' },
      { name: 'start_index', type: 'int', required: true, description: 'First character, from 0.' },
      { name: 'length', type: 'int', required: true, description: 'Maximum number of characters.' },
    ]);
  });

  it('renders the prompt catalogue of only the allowed tools', () => {
    const text = createDefaultRegistry({ fs: { root: '/tmp' } }).catalogue(createPolicy({ allow: ['tool.math.*', 'tool.fs.*'], grants: ['fs:read:/data/**'] }), { heading: '' });
    expect(text.split('\n')).toEqual([
      'tool.fs.List(path: string, recursive?: bool) -> list - Entries of a directory: [{"name", "path", "type", "size"}], sorted by path.',
      'tool.fs.Read(filepath: string) -> string - The UTF-8 text of a file under the fs root.',
      'tool.fs.Stat(path: string) -> map - Facts about a path: {"path", "type", "size", "modified"}, or nil when absent; a symbolic link is reported as type "symlink" (size 0) and not followed.',
      'tool.math.Add(num1: float, num2: float) -> float - num1 + num2.',
      'tool.math.Divide(num1: float, num2: float) -> float - num1 / num2; fails when num2 is 0.',
      'tool.math.Modulo(num1: int, num2: int) -> int - Remainder of num1 / num2 (sign of num1, as in Go); fails when num2 is 0.',
      'tool.math.Multiply(num1: float, num2: float) -> float - num1 * num2.',
      'tool.math.Subtract(num1: float, num2: float) -> float - num1 - num2.',
    ]);
  });

  it('renders the whole built-in catalogue in characters up to U+00FF (V8 then keeps the system text one byte a character)', () => {
    const registry = createDefaultRegistry({ fs: { root: '/tmp' }, http: {} });
    const text = registry.catalogue(createPolicy({ allow: ['tool.*.*'], grants: ['*:*'] }));
    expect(text.split('\n').length).toBeGreaterThan(60);
    expect(text.match(/[^\u0000-\u00ff]/g) ?? []).toEqual([]);
  });
});
