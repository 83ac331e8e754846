import { describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import { useTempStore } from '../../test/temp-store.ts';
import { createManualClock } from '../clock.ts';
import { createSafeToolPacks } from './default-registry.ts';
import { createScratchTools } from './scratch-tools.ts';

const clock = createManualClock();
const temp = useTempStore(clock);

describe('tool.scratch.Get/PutCAS', () => {
  it('stores per session with a TTL in seconds from the injected clock', async () => {
    const host = hostFor(createSafeToolPacks(), { allow: ['**'] }, { stores: temp.stores, clock });
    expect(await host.call('tool.scratch.PutCAS', ['cursor', 0, 7, 60])).toEqual([true, 1]);
    expect(await host.call('tool.scratch.Get', ['cursor'])).toEqual([7, 1]);
    expect(await hostFor(createSafeToolPacks(), { allow: ['**'] }, { stores: temp.stores, clock, session: 'other' }).call('tool.scratch.Get', ['cursor'])).toEqual([null, 0]);
    clock.advance(60_000);
    expect(await host.call('tool.scratch.Get', ['cursor'])).toEqual([null, 0]);
  });

  it('uses the default TTL when none is given', async () => {
    const host = hostFor([createScratchTools({ defaultTtlSeconds: 5 })], { allow: ['**'] }, { stores: temp.stores, clock });
    await host.call('tool.scratch.PutCAS', ['k', 0, 'v']);
    clock.advance(4_999);
    expect(await host.call('tool.scratch.Get', ['k'])).toEqual(['v', 1]);
    clock.advance(1);
    expect(await host.call('tool.scratch.Get', ['k'])).toEqual([null, 0]);
  });

  it('refuses bad TTLs and stale versions', async () => {
    const host = hostFor([createScratchTools({ defaultTtlSeconds: 50, maxTtlSeconds: 100 })], { allow: ['**'] }, { stores: temp.stores, clock });
    expect((await host.fail('tool.scratch.PutCAS', ['k', 0, 'v', 0])).message).toBe('tool.scratch.PutCAS: ttl must be between 1 and 100 seconds, got 0 (pack scratch)');
    expect((await host.fail('tool.scratch.PutCAS', ['k', 0, 'v', 101])).code).toBe('TOOL_ARGUMENT_INVALID');
    expect((await host.fail('tool.scratch.PutCAS', ['k', 'x', 'v'])).code).toBe('TOOL_ARGUMENT_INVALID');
    expect(await host.call('tool.scratch.PutCAS', ['k', 3, 'v'])).toEqual([false, 0]);
  });

  it('refuses a key holding U+0000 as a bad argument saying to leave it out, never showing the key', async () => {
    const host = hostFor(createSafeToolPacks(), { allow: ['**'] }, { stores: temp.stores, clock });
    const said = 'key holds the NUL character (U+0000) at index 6, which no store keeps; use a key without the NUL character';
    for (const [name, args] of [['tool.scratch.Get', ['cursor\u0000']], ['tool.scratch.PutCAS', ['cursor\u0000', 0, 'v', 60]]] as const) {
      const error = await host.fail(name, args);
      expect([error.code, error.argument, error.message]).toEqual(['TOOL_ARGUMENT_INVALID', 'key', `${name}: ${said} (pack scratch)`]);
    }
    expect(await host.call('tool.scratch.PutCAS', ['cursor', 0, '\u0000', 60])).toEqual([true, 1]);
    expect(await host.call('tool.scratch.Get', ['cursor'])).toEqual(['\u0000', 1]);
  });

  it('refuses a key holding a lone surrogate as a bad argument saying to use well-formed text', async () => {
    const host = hostFor(createSafeToolPacks(), { allow: ['**'] }, { stores: temp.stores, clock });
    expect(await host.call('tool.scratch.PutCAS', ['cursor\uFFFD', 0, 'kept', 60])).toEqual([true, 1]);
    const said = 'key is not well-formed text: the character at index 6 is half of a surrogate pair (U+DBFF) without its other half, which a store keeps as U+FFFD; use a key that is well-formed text';
    for (const [name, args] of [['tool.scratch.Get', ['cursor\uDBFF']], ['tool.scratch.PutCAS', ['cursor\uDBFF', 1, 'v', 60]]] as const) {
      const error = await host.fail(name, args);
      expect([error.code, error.argument, error.message]).toEqual(['TOOL_ARGUMENT_INVALID', 'key', `${name}: ${said} (pack scratch)`]);
    }
    expect(await host.call('tool.scratch.Get', ['cursor\uFFFD'])).toEqual(['kept', 1]);
    expect(await host.call('tool.scratch.PutCAS', ['cursor', 0, '\uDC00', 60])).toEqual([true, 1]);
    expect(await host.call('tool.scratch.Get', ['cursor'])).toEqual(['\uDC00', 1]);
  });

  it('answers a negative version as a lost PutCAS with the live version (the store refuses one from code)', async () => {
    const host = hostFor(createSafeToolPacks(), { allow: ['**'] }, { stores: temp.stores, clock });
    expect(await host.call('tool.scratch.PutCAS', ['k', 0, 'v', 60])).toEqual([true, 1]);
    expect(await host.call('tool.scratch.PutCAS', ['k', -1, 'w', 60])).toEqual([false, 1]);
    expect(await host.call('tool.scratch.Get', ['k'])).toEqual(['v', 1]);
    clock.advance(60_000);
    expect(await host.call('tool.scratch.PutCAS', ['k', -1, 'w', 60])).toEqual([false, 0]);
  });
});
