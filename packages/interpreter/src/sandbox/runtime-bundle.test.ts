import { describe, expect, it } from 'vitest';
import { createRuntimeBundle } from './runtime-bundle.ts';

describe('createRuntimeBundle', () => {
  it('derives the id from the name and the source, so a changed source gets a new id', () => {
    const first = createRuntimeBundle('globalThis.main = () => 1;', 'evaluator');
    expect(first.id).toMatch(/^evaluator@[0-9a-f]{16}$/);
    expect(createRuntimeBundle('globalThis.main = () => 1;', 'evaluator').id).toBe(first.id);
    expect(createRuntimeBundle('globalThis.main = () => 2;', 'evaluator').id).not.toBe(first.id);
    expect(Object.isFrozen(first)).toBe(true);
  });
});
