import { describe, expect, it } from 'vitest';
import { defaultWorkerEntry } from './worker-entry.ts';

describe('defaultWorkerEntry', () => {
  it('forks the TypeScript entry beside a source module, with the source condition', () => {
    expect(defaultWorkerEntry('file:///repo/packages/interpreter/src/sandbox/sandbox-pool.ts')).toEqual({
      path: '/repo/packages/interpreter/src/sandbox/worker-main.ts',
      execArgv: ['--conditions=@askloop/source'],
    });
  });

  it('forks the built entry under dist/sandbox from a bundled module', () => {
    expect(defaultWorkerEntry('file:///repo/packages/interpreter/dist/index.js')).toEqual({
      path: '/repo/packages/interpreter/dist/sandbox/worker-main.js',
      execArgv: [],
    });
  });

  it('finds the worker beside this module when run from sources', () => {
    expect(defaultWorkerEntry().path).toMatch(/src[\\/]sandbox[\\/]worker-main\.ts$/);
  });
});
