import { describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import { useTempStore } from '../../test/temp-store.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import { createSafeToolPacks } from './default-registry.ts';
import { createFileSystemTools } from './fs-tools.ts';

const temp = useTempStore();

describe('tool.policy.Allow (Plan → Apply)', () => {
  const policy = { allow: ['tool.policy.*', 'tool.memory.*', 'tool.str.*', 'tool.fs.*'], grants: ['memory:read,write:/ingest/**', 'fs:write:/out/**'] };
  const packs = () => [...createSafeToolPacks(), createFileSystemTools({ root: temp.directory })];

  it.each<[string, ToolValue, ToolValue]>([
    ['a memory op inside the grant', [{ op: 'set', path: '/ingest/queue/x', value: 'taken' }], [true, '']],
    ['a memory op outside the grant', [{ op: 'set', path: '/other/x' }], [false, 'step 0 needs capability memory:write:/other/x — add the grant memory:write:/other/x to the policy']],
    ['a read op', { op: 'get', key: '/ingest/a' }, [true, '']],
    ['an unknown op', [{ op: 'explode', path: '/ingest/x' }], [false, 'step 0 has the unknown op "explode" (known: set, cas, put, write, delete, get, read)']],
    ['an op without a path', [{ op: 'set' }], [false, 'step 0 (op set) has no string "path" or "key"']],
    ['an allowed tool step', [{ tool: 'tool.fs.Write', args: ['/out/a.txt', 'x'] }], [true, '']],
    ['a tool step with named args', [{ tool: 'fs.write', args: { filepath: '/out/a.txt', content: 'x' } }], [true, '']],
    ['a tool step outside its scope', [{ op: 'get', path: '/ingest/a' }, { tool: 'tool.fs.Write', args: ['/etc/passwd', 'x'] }], [false, 'step 1 tool.fs.Write needs capability fs:write:/etc/passwd — add the grant fs:write:/etc/passwd to the policy']],
    ['a tool step escaping the root', [{ tool: 'tool.fs.Write', args: ['../x', 'x'] }], [false, "step 0 filepath '../x' contains '..'; paths must stay inside the fs root"]],
    ['a tool the policy does not allow', [{ tool: 'tool.list.Length', args: [[]] }], [false, "step 0 tool.list.Length is not in the policy's allow list (allow list: tool.policy.*, tool.memory.*, tool.str.*, tool.fs.*); add 'tool.list.Length' or a pattern matching it to the allow list"]],
    ['an unknown tool', [{ tool: 'tool.nope.X' }], [false, 'step 0 names the unknown tool tool.nope.X']],
    ['bad arguments', [{ tool: 'tool.str.Length', args: [1] }], [false, "step 0 tool.str.Length argument 'input_string' expects a string (numbers are not converted), got number 1"]],
    ['a step that is not a map', ['rm -rf /'], [false, 'step 0 is not a map']],
    ['a map with neither tool nor op', [{ path: '/x' }], [false, 'step 0 has neither "tool" nor "op"']],
    ['an empty plan', [], [true, '']],
    // Review finding 8: Allow must agree with the real memory tools.
    ['a key with a leading space (review 8)', [{ op: 'cas', key: ' /ingest/x' }], [false, 'step 0 needs capability memory:write: /ingest/x — no grant can name it exactly, because the scope " /ingest/x" starts or ends with white space; grant a pattern that covers it or use another name']],
    ['a key with a comma (review 8)', [{ op: 'set', key: '/ingest/a,/other/b' }], [true, '']],
    ['a key with a comma outside the grant (review 8)', [{ op: 'set', key: '/other/a,/ingest/b' }], [false, 'step 0 needs capability memory:write:/other/a,/ingest/b — no grant can name it exactly, because the scope "/other/a,/ingest/b" contains a comma; grant a pattern that covers it or use another name']],
    ['an empty key (review 8)', [{ op: 'set', key: '' }], [false, 'step 0 (op set) key must be 1 to 512 characters, got 0']],
    ['a key holding U+0000, as tool.memory.CAS refuses it', [{ op: 'set', key: '/ingest/a\u0000' }], [false, 'step 0 (op set) key holds the NUL character (U+0000) at index 9, which no store keeps; use a key without the NUL character']],
    ['a key holding a lone surrogate, as tool.memory.CAS refuses it', [{ op: 'set', key: '/ingest/a\uD800' }], [false, 'step 0 (op set) key is not well-formed text: the character at index 9 is half of a surrogate pair (U+D800) without its other half, which a store keeps as U+FFFD; use a key that is well-formed text']],
    ['a key with a space inside (review 8)', [{ op: 'set', key: '/other/a b' }], [false, "step 0 needs capability memory:write:/other/a b — add the grant 'memory:write:/other/a b' to the policy"]],
  ])('%s', async (_label, plan, expected) => {
    const host = hostFor(packs(), policy, { stores: temp.stores });
    expect(await host.call('tool.policy.Allow', [plan])).toEqual(expected);
  });

  it('needs a plan', async () => {
    const error = await hostFor(packs(), policy, { stores: temp.stores }).fail('tool.policy.Allow', []);
    expect([error.code, error.message]).toEqual(['TOOL_ARGUMENT_MISSING', "tool.policy.Allow needs argument 'plan' (any); its arguments, in order: tool.policy.Allow(plan: any)"]);
  });

  it('does not consume call limits', async () => {
    const host = hostFor(packs(), { ...policy, limits: { tools: { 'tool.fs.write': { perTurn: 1 } } } }, { stores: temp.stores });
    const plan = [{ tool: 'tool.fs.Write', args: ['/out/a', 'x'] }];
    expect(await host.call('tool.policy.Allow', [plan])).toEqual([true, '']);
    expect(await host.call('tool.policy.Allow', [plan])).toEqual([true, '']);
    expect(await host.call('tool.fs.Write', ['/out/a', 'x'])).toEqual({ path: '/out/a', bytes: 1 });
  });

  it('runs the seed 000 §4 two-turn Plan → Apply example', async () => {
    const turn1 = hostFor(createSafeToolPacks(), { allow: ['**'], grants: ['memory:read,write:/ingest/**'] }, { stores: temp.stores, turn: 1 });
    const caps = (await turn1.call('tool.system.Caps', [])) as Record<string, unknown>;
    expect(caps['memory:write']).toBe(true);
    const plan = [{ op: 'set', path: '/ingest/queue/x', value: 'taken' }];
    const turn2 = hostFor(createSafeToolPacks(), { allow: ['**'], grants: ['memory:read,write:/ingest/**'] }, { stores: temp.stores, turn: 2 });
    expect(await turn2.call('tool.policy.Allow', [plan])).toEqual([true, '']);
    const [, version] = (await turn2.call('tool.memory.Get', ['/ingest/queue/x'])) as [unknown, number];
    expect(await turn2.call('tool.memory.CAS', ['/ingest/queue/x', version, 'taken'])).toEqual([true, 1]);
  });
});

describe('tool.policy.Allow agrees with the real call (review finding 8)', () => {
  it.each([' /ingest/x', '/other/a,/ingest/b', '/ingest/a,/other/b', ''])('memory.CAS(%j) and Allow give the same verdict', async (key) => {
    const host = hostFor(createSafeToolPacks(), { allow: ['**'], grants: ['memory:write:/ingest/**'] }, { stores: temp.stores });
    const [allowed] = (await host.call('tool.policy.Allow', [{ op: 'cas', key }])) as [boolean, string];
    const real = await host.call('tool.memory.CAS', [key, 0, 'v']).then(() => true, () => false);
    expect(allowed).toBe(real);
  });
});
