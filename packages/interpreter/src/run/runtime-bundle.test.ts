import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildRuntimeBundleSource, GENERATED_FILE, renderGeneratedModule } from './generate-runtime-bundle.ts';
import { RUNTIME_BUNDLE_SOURCE } from './runtime-bundle-source.generated.ts';

describe('runtime bundle', () => {
  it('is up to date with src/evaluate and src/runtime (run `pnpm generate:runtime` if this fails)', async () => {
    const fresh = renderGeneratedModule(await buildRuntimeBundleSource());
    expect(readFileSync(GENERATED_FILE, 'utf8') === fresh).toBe(true);
  });

  it('is a classic script without imports that defines the entry', () => {
    expect(RUNTIME_BUNDLE_SOURCE).not.toMatch(/^\s*import\s/m);
    expect(RUNTIME_BUNDLE_SOURCE).not.toMatch(/\brequire\(/);
    expect(RUNTIME_BUNDLE_SOURCE).toContain('__askloopEvaluate');
  });
});
