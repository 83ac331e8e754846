import { describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import { useTempStore } from '../../test/temp-store.ts';
import { createSafeToolPacks } from './default-registry.ts';
import { createMemoryTools } from './memory-tools.ts';

const temp = useTempStore();
const memoryGrants = { allow: ['**'], grants: ['memory:read,write:/ingest/**'] };

describe('tool.memory.Get/CAS', () => {
  it('reads [nil, 0], then creates, then refuses a stale version', async () => {
    const host = hostFor(createSafeToolPacks(), memoryGrants, { stores: temp.stores });
    expect(await host.call('tool.memory.Get', ['/ingest/queue/x'])).toEqual([null, 0]);
    expect(await host.call('tool.memory.CAS', ['/ingest/queue/x', 0, 'taken'])).toEqual([true, 1]);
    expect(await host.call('tool.memory.Get', ['/ingest/queue/x'])).toEqual(['taken', 1]);
    expect(await host.call('tool.memory.CAS', ['/ingest/queue/x', 0, 'again'])).toEqual([false, 1]);
    expect(await host.call('tool.memory.CAS', [{ key: '/ingest/queue/x', version: 1, value: { n: 2 } }])).toEqual([true, 2]);
  });

  it('two sessions racing with the same version: exactly one wins', async () => {
    const a = hostFor(createSafeToolPacks(), memoryGrants, { stores: temp.stores, session: 'A' });
    const b = hostFor(createSafeToolPacks(), memoryGrants, { stores: temp.stores, session: 'B' });
    const results = await Promise.all([a.call('tool.memory.CAS', ['/ingest/k', 0, 'A']), b.call('tool.memory.CAS', ['/ingest/k', 0, 'B'])]);
    expect(results.filter((result) => (result as [boolean, number])[0]).length).toBe(1);
  });

  it('checks the key against the memory grant scope', async () => {
    const host = hostFor(createSafeToolPacks(), memoryGrants, { stores: temp.stores });
    const error = await host.fail('tool.memory.CAS', ['/secrets/x', 0, 1]);
    expect([error.code, error.message]).toEqual(['POLICY_CAPABILITY_MISSING', 'tool.memory.CAS needs capability memory:write:/secrets/x — add the grant memory:write:/secrets/x to the policy']);
  });

  it('treats a key with commas as one scope', async () => {
    const host = hostFor(createSafeToolPacks(), memoryGrants, { stores: temp.stores });
    expect(await host.call('tool.memory.CAS', ['/ingest/a,b', 0, 1])).toEqual([true, 1]);
    expect((await host.fail('tool.memory.CAS', ['/secrets/a,/ingest/b', 0, 1])).capability).toBe('memory:write:/secrets/a,/ingest/b');
  });

  it('refuses bad arguments and oversized values', async () => {
    const host = hostFor([createMemoryTools({ maxValueBytes: 10 })], { allow: ['**'], grants: ['memory:*'] }, { stores: temp.stores });
    expect((await host.fail('tool.memory.CAS', ['k', 'one', 1])).code).toBe('TOOL_ARGUMENT_INVALID');
    expect((await host.fail('tool.memory.CAS', ['k'])).code).toBe('TOOL_ARGUMENT_MISSING');
    expect((await host.fail('tool.memory.Get', [''])).message).toBe('tool.memory.Get: key must be 1 to 512 characters, got 0 (pack memory)');
    expect((await host.fail('tool.memory.CAS', ['k', 0, 'x'.repeat(20)])).message).toBe('tool.memory.CAS: value is 22 bytes as JSON; the limit is 10 (pack memory)');
  });

  it('refuses a key holding U+0000 as a bad argument saying to leave it out, before the program runs when literal, never showing the key', async () => {
    // PostgreSQL's text cannot hold the character: it failed there as STORE_FAILED, and was stored on SQLite.
    const host = hostFor([createMemoryTools()], { allow: ['**'], grants: ['memory:*'] }, { stores: temp.stores });
    const said = 'key holds the NUL character (U+0000) at index 6, which no store keeps; use a key without the NUL character';
    for (const [name, args] of [['tool.memory.Get', ['secret\u0000x']], ['tool.memory.CAS', ['secret\u0000x', 0, 'v']]] as const) {
      const error = await host.fail(name, args);
      expect([error.code, error.argument, error.message]).toEqual(['TOOL_ARGUMENT_INVALID', 'key', `${name}: ${said} (pack memory)`]);
      expect(host.catalog.check(name, args)?.code).toBe('TOOL_ARGUMENT_INVALID');
    }
    expect(await host.call('tool.memory.CAS', ['secret', 0, 'a value\u0000 may hold it'])).toEqual([true, 1]);
    expect(await host.call('tool.memory.Get', ['secret'])).toEqual(['a value\u0000 may hold it', 1]);
  });

  it('refuses a key holding a lone surrogate as a bad argument saying to use well-formed text, before the program runs when literal', async () => {
    // Both backends kept it as U+FFFD, so 'secret\uD800' and 'secret\uFFFD' were one key and a write to one overwrote the other.
    const host = hostFor([createMemoryTools()], { allow: ['**'], grants: ['memory:*'] }, { stores: temp.stores });
    expect(await host.call('tool.memory.CAS', ['secret\uFFFD', 0, 'kept'])).toEqual([true, 1]);
    const said = 'key is not well-formed text: the character at index 6 is half of a surrogate pair (U+D800) without its other half, which a store keeps as U+FFFD; use a key that is well-formed text';
    for (const [name, args] of [['tool.memory.Get', ['secret\uD800']], ['tool.memory.CAS', ['secret\uD800', 1, 'v']]] as const) {
      const error = await host.fail(name, args);
      expect([error.code, error.argument, error.message]).toEqual(['TOOL_ARGUMENT_INVALID', 'key', `${name}: ${said} (pack memory)`]);
      expect(host.catalog.check(name, args)?.code).toBe('TOOL_ARGUMENT_INVALID');
    }
    expect((await host.fail('tool.memory.CAS', ['\uDC00x', 0, 'v'])).message).toContain('the character at index 0 is half of a surrogate pair (U+DC00)');
    expect(await host.call('tool.memory.Get', ['secret\uFFFD'])).toEqual(['kept', 1]);
    // A value may hold one: canonical JSON writes it as an escape.
    expect(await host.call('tool.memory.CAS', ['secret', 0, 'half \uD800 of a pair'])).toEqual([true, 1]);
    expect(await host.call('tool.memory.Get', ['secret'])).toEqual(['half \uD800 of a pair', 1]);
  });

  it('answers a negative version as a lost CAS with the current version (the store refuses one from code)', async () => {
    const host = hostFor(createSafeToolPacks(), memoryGrants, { stores: temp.stores });
    expect(await host.call('tool.memory.CAS', ['/ingest/k', 0, 'v'])).toEqual([true, 1]);
    expect(await host.call('tool.memory.CAS', ['/ingest/k', -1, 'w'])).toEqual([false, 1]);
    expect(await host.call('tool.memory.CAS', ['/ingest/absent', -3, 'w'])).toEqual([false, 0]);
    expect(await host.call('tool.memory.Get', ['/ingest/k'])).toEqual(['v', 1]);
    expect(await host.call('tool.memory.Get', ['/ingest/absent'])).toEqual([null, 0]);
  });

  it('needs a store', async () => {
    const error = await hostFor([createMemoryTools()], { allow: ['**'], grants: ['memory:*'] }).fail('tool.memory.Get', ['k']);
    expect(error.code).toBe('TOOL_STORE_MISSING');
  });

  it('replays a recorded CAS instead of failing it the second time', async () => {
    const first = hostFor(createSafeToolPacks(), memoryGrants, { stores: temp.stores });
    expect(await first.call('tool.memory.CAS', ['/ingest/k', 0, 'v'])).toEqual([true, 1]);
    const replay = hostFor(createSafeToolPacks(), memoryGrants, { stores: temp.stores });
    expect(await replay.call('tool.memory.CAS', ['/ingest/k', 0, 'v'])).toEqual([true, 1]);
    expect(await replay.call('tool.memory.Get', ['/ingest/k'])).toEqual(['v', 1]);
  });
});
