/**
 * The pack factories and `createDefaultRegistry` refuse options they would
 * ignore or that would lift a bound (walkthrough: `createMemoryTools({
 * maxValueBytes: 'x' })` meant no limit, `createScratchTools({
 * defaultTtlSeconds: -1 })` failed every PutCAS without a ttl as the
 * program's fault, `createDefaultRegistry({ fss })` left the fs tools out).
 */
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../stores/sqlite-store.ts';
import { createCapsuleTools } from './capsule-tools.ts';
import { createDefaultRegistry } from './default-registry.ts';
import { createHttpTools } from './http-tools.ts';
import { createMemoryTools } from './memory-tools.ts';
import { createScratchTools } from './scratch-tools.ts';

const refusal = (make: () => unknown): [string | undefined, string] | undefined => {
  try {
    make();
  } catch (error) {
    return [(error as { code?: string }).code, (error as Error).message];
  }
  return undefined;
};

describe('pack factory options', () => {
  it('refuses a misspelt option, naming the one meant', () => {
    expect(refusal(() => createHttpTools({ maxByte: 1 } as never))).toEqual(['TOOL_SPEC_INVALID', "createHttpTools(): unknown option 'maxByte'; did you mean 'maxBytes'? (the options are maxBytes, timeoutMs, maxRedirects, lookup, specialAddresses)"]);
    expect(refusal(() => createDefaultRegistry({ fss: { root: '/srv' } } as never))).toEqual(['TOOL_SPEC_INVALID', "createDefaultRegistry(): unknown option 'fss'; did you mean 'fs'? (the options are fs, http, extraPacks)"]);
    expect(refusal(() => createMemoryTools({ maxvaluebytes: 10 } as never))?.[1]).toContain("did you mean 'maxValueBytes'?");
  });

  it('refuses a limit that is not a whole number in range', () => {
    expect(refusal(() => createMemoryTools({ maxValueBytes: 'x' as never }))).toEqual(['TOOL_SPEC_INVALID', 'createMemoryTools(): maxValueBytes must be a whole number >= 1, got "x"']);
    expect(refusal(() => createScratchTools({ defaultTtlSeconds: -1 }))).toEqual(['TOOL_SPEC_INVALID', 'createScratchTools(): defaultTtlSeconds must be a whole number >= 1, got -1']);
    expect(refusal(() => createScratchTools({ defaultTtlSeconds: 7200, maxTtlSeconds: 3600 }))).toEqual(['TOOL_SPEC_INVALID', 'createScratchTools(): defaultTtlSeconds 7200 is above maxTtlSeconds 3600; every PutCAS without a ttl would be refused']);
    // Review: a maximum below the default's hour, the default not given, was refused; it lowers the default.
    expect(refusal(() => createScratchTools({ maxTtlSeconds: 60 }))).toBeUndefined();
    const ttlDefault = (pack: ReturnType<typeof createScratchTools>) => pack.tools.find((tool) => tool.spec.name.toLowerCase() === 'tool.scratch.putcas')?.spec.arguments.find((arg) => arg.name === 'ttl')?.default;
    expect(ttlDefault(createScratchTools({ maxTtlSeconds: 60 }))).toBe(60);
    expect(ttlDefault(createScratchTools())).toBe(3600);
    expect(refusal(() => createHttpTools({ timeoutMs: 1.5 }))?.[0]).toBe('TOOL_SPEC_INVALID');
    expect(refusal(() => createHttpTools({ lookup: 'dig' as never }))).toEqual(['TOOL_SPEC_INVALID', 'createHttpTools(): lookup must be a function (hostname) => Promise<{ address }[]>, got string']);
    expect(refusal(() => createHttpTools({ specialAddresses: 'all' as never }))).toEqual([
      'TOOL_SPEC_INVALID',
      "createHttpTools(): specialAddresses must be 'named' (the default: only a grant naming the host reaches a loopback, private or other special-use address) or 'granted' (any grant covering the host does), got \"all\"",
    ]);
    // The transport is the pack's own now, so that it can check each connection's address; an injected fetch would skip that.
    expect(refusal(() => createHttpTools({ fetch: globalThis.fetch } as never))).toEqual([
      'TOOL_SPEC_INVALID',
      'createHttpTools(): fetch is no longer an option: the pack makes its own connections so that it can check the address each one goes to; to give test host names fixed addresses, pass lookup: (hostname) => Promise<{ address }[]>',
    ]);
    expect(refusal(() => createHttpTools(null as never))?.[0]).toBe('TOOL_SPEC_INVALID');
  });

  it('refuses a store that is not one, and capsule documents or options that are not a list or an object (review: taken, then every call failed TOOL_FAILED)', () => {
    const sqlite = openSqliteStore(':memory:');
    try {
      // The whole store given where its memory part belongs: the likeliest mistake.
      expect(refusal(() => createMemoryTools({ store: sqlite as never }))).toEqual(['TOOL_SPEC_INVALID', 'createMemoryTools(): store must be a memory store such as openSqliteStore(file).memory (an object with get, cas), got an object without get()']);
      expect(refusal(() => createScratchTools({ store: sqlite.memory as never }))).toEqual(['TOOL_SPEC_INVALID', 'createScratchTools(): store must be a scratch store such as openSqliteStore(file).scratch (an object with get, putCas), got an object without putCas()']);
      expect(refusal(() => createMemoryTools({ store: 'sqlite' as never }))?.[1]).toContain('got "sqlite"');
      expect(refusal(() => createMemoryTools({ store: sqlite.memory }))).toBeUndefined();
      expect(refusal(() => createScratchTools({ store: sqlite.scratch }))).toBeUndefined();
    } finally {
      sqlite.close();
    }
    expect(refusal(() => createCapsuleTools({ document: [] } as never))).toEqual(['TOOL_SPEC_INVALID', "createCapsuleTools(): unknown option 'document'; did you mean 'documents'? (the options are documents)"]);
    expect(refusal(() => createCapsuleTools({ documents: 'aeiou' as never }))).toEqual(['TOOL_SPEC_INVALID', 'createCapsuleTools(): documents must be a list of { id, version, title, description, content }, got string']);
    expect(refusal(() => createCapsuleTools(5 as never))?.[0]).toBe('TOOL_SPEC_INVALID');
    expect(refusal(() => createCapsuleTools({ documents: [] }))).toBeUndefined();
  });

  it('takes the options as documented', () => {
    expect(refusal(() => createMemoryTools({ maxValueBytes: 10 }))).toBeUndefined();
    expect(refusal(() => createScratchTools({ defaultTtlSeconds: 60, maxTtlSeconds: 60, maxValueBytes: 100 }))).toBeUndefined();
    expect(refusal(() => createHttpTools({ maxBytes: 10, timeoutMs: 100, maxRedirects: 0, lookup: async () => [{ address: '127.0.0.1' }], specialAddresses: 'granted' }))).toBeUndefined();
    expect(refusal(() => createDefaultRegistry({ http: {}, extraPacks: [] }))).toBeUndefined();
    expect(refusal(() => createDefaultRegistry())).toBeUndefined();
  });
});
