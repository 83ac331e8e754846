import { describe, expect, it } from 'vitest';
import { parseWorkerUrl } from './parse-worker-entry.ts';

describe('parseWorkerUrl', () => {
  it('uses the TypeScript worker beside a source module', () => {
    expect(parseWorkerUrl('file:///repo/packages/interpreter/src/parse/parse-supervisor.ts').href).toBe('file:///repo/packages/interpreter/src/parse/parse-worker.ts');
  });

  it('uses the built worker under dist/parse from a bundled module', () => {
    expect(parseWorkerUrl('file:///repo/packages/interpreter/dist/index.js').href).toBe('file:///repo/packages/interpreter/dist/parse/parse-worker.js');
  });

  it('finds the worker beside this module when run from sources', () => {
    expect(parseWorkerUrl().pathname).toMatch(/src\/parse\/parse-worker\.ts$/);
  });
});
