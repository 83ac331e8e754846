import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import { ToolError } from '../errors/tool-error.ts';
import { createFileSystemTools } from '../packs/fs-tools.ts';
import { createHttpTools } from '../packs/http-tools.ts';
import { createMemoryTools } from '../packs/memory-tools.ts';
import { createStringTools } from '../packs/string-tools.ts';
import { createSafeToolPacks } from '../packs/default-registry.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import { createCallCounter } from '../policy/call-counter.ts';
import { defineToolPack } from '../registry/tool-pack.ts';
import { defineTool } from '../spec/define-tool.ts';
import type { ToolContext } from '../spec/tool-context.ts';
import { openSqliteStore, type SqliteToolStore } from '../stores/sqlite-store.ts';
import { createToolHost } from './tool-host.ts';
import { createToolRegistry } from '../registry/tool-registry.ts';
import { createPolicy } from '../policy/policy.ts';

let effects = 0;
let lastContext: ToolContext | undefined;
let abortedSignal: AbortSignal | undefined;

const pack = defineToolPack('demo', [
  defineTool({ name: 'tool.demo.Echo', description: 'Echo.', args: [{ name: 'text', type: 'string' }, { name: 'times', type: 'int', default: 1 }], returns: 'string' }, (args, context) => {
    lastContext = context;
    return (args.text as string).repeat(args.times as number);
  }),
  defineTool({ name: 'tool.demo.Bump', description: 'Side effect.', args: [{ name: 'by', type: 'int' }], effect: 'write', returns: 'int' }, async (args) => {
    // Yield first, so a second host calling at the same time gets to its claim while this call runs.
    await new Promise((resolve) => setImmediate(resolve));
    effects += args.by as number;
    return effects;
  }),
  defineTool({ name: 'tool.demo.FailingWrite', description: 'A write that fails.', effect: 'write' }, () => {
    effects += 100;
    throw new Error('half done');
  }),
  defineTool({ name: 'tool.demo.Boom', description: 'Throws.' }, () => {
    throw new Error('disk on fire');
  }),
  defineTool({ name: 'tool.demo.Typed', description: 'Throws a ToolError.' }, () => {
    throw new ToolError('TOOL_VALUE_INVALID', 'bad value');
  }),
  defineTool({ name: 'tool.demo.Hang', description: 'Never ends.', timeoutMs: 20 }, (_args, context) => {
    abortedSignal = context.signal;
    return new Promise(() => {});
  }),
  defineTool({ name: 'tool.demo.Weird', description: 'Returns a Date.' }, () => new Date(0) as unknown as null),
  defineTool({ name: 'tool.demo.Rest', description: 'Variadic.', args: [{ name: 'first', type: 'int' }], variadic: true, returns: 'list' }, (args, context) => [args.first ?? null, ...context.rest]),
]);

beforeEach(() => {
  effects = 0;
});

describe('createToolHost: call', () => {
  it('canonicalises the name, binds positional or named arguments and passes the context', async () => {
    const host = hostFor([pack]);
    expect(await host.call('tool.DEMO.echo', ['ab', '2'])).toBe('abab');
    expect(await host.call('demo.Echo', [{ text: 'x', times: 3 }])).toBe('xxx');
    expect(lastContext).toMatchObject({ session: 's1', turn: 1, callIndex: 1, rest: [] });
    expect(await host.call('tool.demo.Rest', [1, 'a', { b: 2 }])).toEqual([1, 'a', { b: 2 }]);
  });

  it('fails with TOOL_NOT_FOUND for unknown tools, with hints', async () => {
    const error = await hostFor([pack]).fail('tool.demo.Ecko', []);
    expect(error.toJSON()).toEqual({ code: 'TOOL_NOT_FOUND', referenceCode: 3, message: "tool 'tool.demo.Ecko' not found; did you mean tool.demo.Echo?", tool: 'tool.demo.Ecko' });
  });

  it('checks the policy before looking at arguments', async () => {
    const error = await hostFor([pack], { allow: ['tool.demo.Bump'] }).fail('tool.demo.Echo', [42]);
    expect(error.code).toBe('POLICY_NOT_ALLOWED');
    expect(error.pack).toBe('demo');
  });

  it('names tool, argument and expectation for bad arguments', async () => {
    const error = await hostFor([pack]).fail('tool.demo.Echo', [42]);
    expect(error.toJSON()).toEqual({
      code: 'TOOL_ARGUMENT_INVALID',
      referenceCode: 4,
      message: "tool.demo.Echo argument 'text' expects a string (numbers are not converted), got number 42",
      tool: 'tool.demo.Echo',
      pack: 'demo',
      argument: 'text',
    });
  });

  it('wraps a thrown error as TOOL_FAILED with the tool and pack names', async () => {
    const error = await hostFor([pack]).fail('tool.demo.Boom', []);
    expect(error.toJSON()).toEqual({ code: 'TOOL_FAILED', referenceCode: 21, message: 'tool.demo.Boom (pack demo) failed: disk on fire', tool: 'tool.demo.Boom', pack: 'demo' });
    expect((error.cause as Error).message).toBe('disk on fire');
  });

  it('keeps the code of a ToolError thrown by a tool and adds the names', async () => {
    const error = await hostFor([pack]).fail('tool.demo.Typed', []);
    expect(error.toJSON()).toEqual({ code: 'TOOL_VALUE_INVALID', referenceCode: 41, message: 'tool.demo.Typed: bad value (pack demo)', tool: 'tool.demo.Typed', pack: 'demo' });
  });

  it('times a tool out and aborts its signal', async () => {
    const error = await hostFor([pack]).fail('tool.demo.Hang', []);
    expect(error.toJSON()).toEqual({ code: 'TOOL_TIMEOUT', referenceCode: 21, message: 'tool.demo.Hang did not finish within 20 ms (pack demo)', tool: 'tool.demo.Hang', pack: 'demo' });
    expect(abortedSignal?.aborted).toBe(true);
  });

  it('refuses results that are not plain data', async () => {
    const error = await hostFor([pack]).fail('tool.demo.Weird', []);
    expect(error.code).toBe('TOOL_RESULT_INVALID');
    expect(error.message).toBe('tool.demo.Weird: a Date at $ is not plain data; return text, e.g. date.toISOString() (pack demo)');
  });

  it('refuses arguments that are not plain data', async () => {
    const error = await hostFor([pack]).fail('tool.demo.Echo', [new Date(0) as unknown as string]);
    expect([error.code, error.message]).toEqual(['TOOL_ARGUMENT_INVALID', 'tool.demo.Echo argument 1: a Date at $ is not plain data; return text, e.g. date.toISOString()']);
  });

  it('logs every call with its outcome and position', async () => {
    const host = hostFor([pack]);
    await host.call('tool.demo.Echo', ['a']);
    await host.fail('tool.demo.Boom', []);
    await host.fail('tool.nope.Nope', []);
    expect(host.log()).toEqual([
      { session: 's1', turn: 1, callIndex: 0, tool: 'tool.demo.echo', outcome: 'ok' },
      { session: 's1', turn: 1, callIndex: 1, tool: 'tool.demo.boom', outcome: 'error', code: 'TOOL_FAILED' },
      { session: 's1', turn: 1, callIndex: 2, tool: 'tool.nope.Nope', outcome: 'error', code: 'TOOL_NOT_FOUND' },
    ]);
  });

  it('counts calls per turn and carries the session counter across turns', async () => {
    const session = createCallCounter();
    const policy = { allow: ['**'], limits: { perTurn: 2, perSession: 3 } };
    const turn1 = hostFor([pack], policy, { sessionCounter: session });
    await turn1.call('tool.demo.Echo', ['a']);
    await turn1.call('tool.demo.Echo', ['a']);
    expect((await turn1.fail('tool.demo.Echo', ['a'])).code).toBe('POLICY_CALL_LIMIT');
    const turn2 = hostFor([pack], policy, { sessionCounter: session, turn: 2 });
    await turn2.call('tool.demo.Echo', ['a']);
    expect((await turn2.fail('tool.demo.Echo', ['a'])).message).toBe('tool.demo.Echo exceeded its call limit: at most 3 tool calls are allowed per session; no more are allowed in this session: finish without them');
  });
});

describe('createToolHost: catalog', () => {
  it('is the registry for the static checker, plus a policy verdict', () => {
    const host = hostFor([pack], { allow: ['tool.demo.E*'] });
    expect(host.catalog.get('DEMO.ECHO')?.arguments.map((argument) => argument.name)).toEqual(['text', 'times']);
    expect(host.catalog.names()).toContain('tool.demo.bump');
    expect(host.catalog.check('tool.demo.Echo')).toBeUndefined();
    expect(host.catalog.check('tool.demo.Bump')?.code).toBe('POLICY_NOT_ALLOWED');
    expect(host.catalog.check('tool.demo.Nope')?.code).toBe('TOOL_NOT_FOUND');
  });
});

describe('createToolHost: catalog.check with literal arguments (check and run agree)', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'askloop-static-'));
    mkdirSync(path.join(root, 'data'), { recursive: true });
    writeFileSync(path.join(root, 'data', 'a.txt'), 'hello');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const fsHost = (grants: string[]) => hostFor([createFileSystemTools({ root })], { allow: ['tool.fs.*'], grants });

  it('refuses a literal fs path outside the grant, with the code the call would fail with', async () => {
    const host = fsHost(['fs:read:/data/**']);
    const denial = host.catalog.check('tool.fs.Read', ['/private/p.txt']);
    expect(denial?.code).toBe('POLICY_CAPABILITY_MISSING');
    expect(denial?.message).toContain('fs:read:/private/p.txt');
    expect((await host.fail('tool.fs.Read', ['/private/p.txt'])).code).toBe(denial?.code);
  });

  it('passes a literal path inside the grant, and leaves unknown arguments to the run time', async () => {
    const host = fsHost(['fs:read:/data/**']);
    expect(host.catalog.check('tool.fs.Read', ['/data/a.txt'])).toBeUndefined();
    expect(host.catalog.check('tool.fs.Read', [{ filepath: '/data/a.txt' }])).toBeUndefined();
    expect(host.catalog.check('tool.fs.Read', [{ filepath: '/private/p.txt' }])?.code).toBe('POLICY_CAPABILITY_MISSING');
    expect(host.catalog.check('tool.fs.Read', [undefined])).toBeUndefined();
    expect(host.catalog.check('tool.fs.Read')).toBeUndefined();
    expect(await host.call('tool.fs.Read', ['/data/a.txt'])).toBe('hello');
  });

  it('reports a scope function that refuses the arguments as the call would', async () => {
    const host = fsHost(['fs:read:/**']);
    const denial = host.catalog.check('tool.fs.Read', ['../outside.txt']);
    const failure = await host.fail('tool.fs.Read', ['../outside.txt']);
    expect(denial?.code).toBe(failure.code);
  });

  // Regression: these passed the check and failed at run time (SCRIPT_TOOL_ARGUMENTS) after earlier statements ran.
  it.each<[string, ToolValue[]]>([
    ['tool.str.Length', [5]],
    ['tool.str.Length', [[1]]],
    ['tool.str.Length', [{ input_string: 'abc', extra: 1 }]],
    ['tool.str.Length', [null]],
    ['tool.str.Substring', ['abc', 'x', 1]],
    ['tool.str.Substring', ['abc', 1.5, 1]],
    ['tool.math.Add', ['a', 1]],
    ['tool.list.Length', ['abc']],
    ['tool.str.Replace', [{ input_string: 'a', old_substring: 'a', new_substring: 'b', count: 'all' }]],
  ])('refuses %s%j (a literal the call would refuse) with the code the call fails with', async (name, args) => {
    const host = hostFor(createSafeToolPacks());
    const denial = host.catalog.check(name, args as Parameters<typeof host.catalog.check>[1]);
    const failure = await host.fail(name, args);
    expect(['TOOL_ARGUMENT_INVALID', 'TOOL_ARGUMENT_MISSING']).toContain(failure.code);
    expect(denial?.code).toBe(failure.code);
  });

  it('checks literal arguments beside computed ones, and leaves computed ones and counts alone', async () => {
    const host = hostFor(createSafeToolPacks());
    expect(host.catalog.check('tool.str.Substring', [undefined, 'x', 1])?.code).toBe('TOOL_ARGUMENT_INVALID');
    expect(host.catalog.check('tool.str.Substring', [undefined, '1', 1])).toBeUndefined(); // numeric strings coerce to int, as in the call
    expect(await host.call('tool.str.Substring', ['abc', '1', 1])).toBe('b');
    expect(host.catalog.check('tool.str.Length', [undefined])).toBeUndefined();
    expect(host.catalog.check('tool.str.Length', ['a', 'b'])).toBeUndefined(); // too many: the interpreter's count check reports it
    expect(host.catalog.check('tool.list.Append', [[1], null])).toBeUndefined(); // nil for an optional argument
    expect(host.catalog.check('tool.str.Length', [{ input_string: 'abc' }])).toBeUndefined();
  });

  it('refuses a literal URL to a host without a grant, counting nothing', async () => {
    const host = hostFor([createHttpTools({})], { allow: ['tool.http.*'], grants: ['net:read:example.com'], limits: { perTurn: 1 } });
    expect(host.catalog.check('tool.http.Fetch', ['https://other.test/x'])?.code).toBe('HTTP_HOST_DENIED');
    expect(host.catalog.check('tool.http.Fetch', ['https://example.com/x'])).toBeUndefined();
    expect(host.catalog.check('tool.http.Fetch', ['https://example.com/y'])).toBeUndefined();
    expect(host.counters.turn.total).toBe(0);
  });

  it('refuses named-argument keys that differ only in case, in the check and the run alike (review: the two bound different keys)', async () => {
    const host = fsHost(['fs:read:/public/**']);
    // The check sees the keys in source order, the run gets them sorted: each used to keep another one.
    const denial = host.catalog.check('tool.fs.Read', [{ filepath: '/data/a.txt', FILEPATH: '/public/ok.txt' }]);
    const failure = await host.fail('tool.fs.Read', [{ FILEPATH: '/public/ok.txt', filepath: '/data/a.txt' }]);
    const expected = ['TOOL_ARGUMENT_INVALID', 'filepath', "tool.fs.Read is given argument 'filepath' twice, as 'FILEPATH' and 'filepath' (named-argument keys ignore case); pass it once"];
    expect([denial?.code, denial?.argument, denial?.message]).toEqual(expected);
    expect([failure.code, failure.argument, failure.message]).toEqual(expected);
    const strings = hostFor(createSafeToolPacks());
    expect(strings.catalog.check('tool.str.ToUpper', [{ INPUT_STRING: 'x', input_string: 5 }])?.code).toBe('TOOL_ARGUMENT_INVALID');
    expect((await strings.fail('tool.str.ToUpper', [{ INPUT_STRING: 'x', input_string: 5 }])).code).toBe('TOOL_ARGUMENT_INVALID');
    expect((await strings.fail('tool.str.ToUpper', [{ INPUT_STRING: 'x', input_string: 'y' }])).code).toBe('TOOL_ARGUMENT_INVALID');
    expect(await strings.call('tool.str.ToUpper', [{ INPUT_STRING: 'x' }])).toBe('X');
  });

  it('names the scoped grant a literal call needs, not the bare verb, in the check and the run (review: hints suggested unscoped grants)', async () => {
    const host = fsHost(['fs:read,write:/public/**']);
    const expected = ['POLICY_CAPABILITY_MISSING', 'fs:delete:/public/leak.txt', 'tool.fs.Delete needs capability fs:delete:/public/leak.txt — add the grant fs:delete:/public/leak.txt to the policy'];
    const denial = host.catalog.check('tool.fs.Delete', ['/public/leak.txt']);
    expect([denial?.code, denial?.capability, denial?.message]).toEqual(expected);
    const failure = await host.fail('tool.fs.Delete', ['/public/leak.txt']);
    expect([failure.code, failure.capability, failure.message]).toEqual(expected);
    expect(host.catalog.check('tool.fs.Delete', [{ path: '/public/leak.txt' }])?.capability).toBe('fs:delete:/public/leak.txt');
    expect((await host.fail('tool.fs.Delete', [{ path: '/public/leak.txt' }])).capability).toBe('fs:delete:/public/leak.txt');
    // Unknown arguments: only the verb is known, and no grant is named (the bare verb would allow it everywhere).
    const unscoped = "tool.fs.Delete needs capability fs:delete for what the call acts on, and the policy holds no fs:delete grant; the call's arguments are not known here (computed, or refused by the tool), so no grant is named: grant fs:delete for the scopes it may act on (fs:delete:<scope>), not fs:delete alone, which would allow it everywhere";
    for (const denial of [host.catalog.check('tool.fs.Delete', [undefined]), host.catalog.check('tool.fs.Delete')]) {
      expect([denial?.code, denial?.capability, denial?.grant, denial?.message]).toEqual(['POLICY_CAPABILITY_MISSING', 'fs:delete', undefined, unscoped]);
    }
    // Arguments the scope function refuses keep the policy denial first, in the check and the run, with no grant either.
    const refused = [host.catalog.check('tool.fs.Delete', ['../x']), await host.fail('tool.fs.Delete', ['../x'])];
    expect(refused.map((denial) => [denial?.code, denial?.capability, denial?.grant, denial?.message])).toEqual([
      ['POLICY_CAPABILITY_MISSING', 'fs:delete', undefined, unscoped],
      ['POLICY_CAPABILITY_MISSING', 'fs:delete', undefined, unscoped],
    ]);
    // A tool whose need has no scope: the bare verb is exactly its grant.
    const notes = defineToolPack('notes', [defineTool({ name: 'tool.notes.Count', description: 'Counts notes.', args: [], capabilities: ['notes:read'] }, () => 0)]);
    expect(hostFor([notes], { allow: ['tool.notes.*'] }).catalog.check('tool.notes.Count', [])?.grant).toBe('notes:read');
    const web = hostFor([createHttpTools({})], { allow: ['tool.http.*'] });
    const fetchDenial = web.catalog.check('tool.http.Fetch', ['http://example.com/']);
    expect([fetchDenial?.code, fetchDenial?.message]).toEqual(['HTTP_HOST_DENIED', 'tool.http.Fetch needs capability net:read:example.com:80 — add the grant net:read:example.com:80 to the policy']);
    expect((await web.fail('tool.http.Fetch', ['http://example.com/'])).message).toBe(fetchDenial?.message);
    // Deny, allow and trust do not depend on the arguments and come first, as before.
    expect(hostFor([createHttpTools({})], { allow: ['tool.fs.*'] }).catalog.check('tool.http.Fetch', ['http://example.com/'])?.code).toBe('POLICY_NOT_ALLOWED');
  });

  it('suggests only names the policy allows, and answers the named-argument rule', () => {
    const host = hostFor([pack], { allow: ['tool.demo.E*'] });
    expect(host.catalog.suggest('tool.demo.Ech')).toEqual(['tool.demo.Echo']);
    expect(host.catalog.suggest('tool.other.bump')).toEqual([]);
    expect(host.catalog.isNamedArgumentMap('tool.demo.Echo', ['TEXT'])).toBe(true);
    expect(host.catalog.isNamedArgumentMap('tool.demo.Echo', ['nope'])).toBe(false);
    expect(host.catalog.isNamedArgumentMap('tool.demo.Missing', ['text'])).toBe(false);
  });
});

describe('createToolHost: idempotent replay (seed 000 §2.12) against a real SQLite file', () => {
  let directory: string;
  let stores: SqliteToolStore;
  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'askloop-host-'));
    stores = openSqliteStore(path.join(directory, 'tools.sqlite'));
  });
  afterEach(() => {
    stores.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('a replayed turn gets the recorded results of write calls instead of acting twice', async () => {
    const first = hostFor([pack], undefined, { stores });
    expect(await first.call('tool.demo.Echo', ['a'])).toBe('a');
    expect(await first.call('tool.demo.Bump', [5])).toBe(5);
    const replay = hostFor([pack], undefined, { stores });
    expect(await replay.call('tool.demo.Echo', ['a'])).toBe('a');
    expect(await replay.call('tool.demo.Bump', [5])).toBe(5);
    expect(effects).toBe(5);
    expect(replay.log().map((entry) => entry.outcome)).toEqual(['ok', 'replayed']);
  });

  it('survives reopening the store file (resume after a crash)', async () => {
    await hostFor([pack], undefined, { stores }).call('tool.demo.Bump', [2]);
    stores.close();
    stores = openSqliteStore(path.join(directory, 'tools.sqlite'));
    expect(await hostFor([pack], undefined, { stores }).call('tool.demo.Bump', [2])).toBe(2);
    expect(effects).toBe(2);
  });

  it('acts again in another turn or session', async () => {
    await hostFor([pack], undefined, { stores }).call('tool.demo.Bump', [1]);
    await hostFor([pack], undefined, { stores, turn: 2 }).call('tool.demo.Bump', [1]);
    await hostFor([pack], undefined, { stores, session: 's2' }).call('tool.demo.Bump', [1]);
    expect(effects).toBe(3);
  });

  it('refuses to act when a replay diverges from the record at the same position', async () => {
    await hostFor([pack], undefined, { stores }).call('tool.demo.Bump', [1]);
    const error = await hostFor([pack], undefined, { stores }).fail('tool.demo.Bump', [2]);
    expect(error.code).toBe('TOOL_REPLAY_DIVERGED');
    expect(error.message).toBe('tool.demo.Bump: call 0 of turn 1 in session s1 was tool.demo.Bump with {"args":{"by":1},"rest":[]} when recorded, now tool.demo.Bump with {"args":{"by":2},"rest":[]}; refusing to act twice');
    expect(effects).toBe(1);
  });

  it('replays a call whose map argument got its keys in another order, even keys whose UTF-8 bytes tie', async () => {
    // '\uD800' alone is written as U+FFFD in UTF-8: ordered by bytes only, the two keys kept their insertion order,
    // so the replay's arguments text differed from the record's and the call diverged.
    const memory = [createMemoryTools()];
    expect(await hostFor(memory, undefined, { stores }).call('tool.memory.CAS', ['/k', 0, { '\uFFFD': 1, '\uD800': 2 }])).toEqual([true, 1]);
    const replay = hostFor(memory, undefined, { stores });
    expect(await replay.call('tool.memory.CAS', ['/k', 0, { '\uD800': 2, '\uFFFD': 1 }])).toEqual([true, 1]);
    expect(replay.log().map((entry) => entry.outcome)).toEqual(['replayed']);
    expect((await stores.idempotence.lookup('s1', 1, 0))?.argumentsJson).toBe('{"args":{"key":"/k","value":{"\\ud800":2,"\uFFFD":1},"version":0},"rest":[]}');
  });

  it('a run continuing a cut-short run reads what that run read before its writes, so a read-then-write acts once', async () => {
    const memory = [createMemoryTools()];
    // The cut-short run: reads version 0, claims the key, reads again after its write, then the host dies.
    const first = hostFor(memory, undefined, { stores, journalReads: true });
    const [, seen] = (await first.call('tool.memory.Get', ['/ingest/x'])) as [ToolValue, number];
    expect(await first.call('tool.memory.CAS', ['/ingest/x', seen, 'taken'])).toEqual([true, 1]);
    expect(await first.call('tool.memory.Get', ['/ingest/x'])).toEqual(['taken', 1]);
    // Only the read before the write is journaled: one after the last write affected nothing.
    expect(await stores.idempotence.lookup('s1', 1, 0)).toMatchObject({ tool: 'tool.memory.get', result: [null, 0] });
    expect(await stores.idempotence.lookup('s1', 1, 2)).toBeUndefined();
    // The same program run again, continuing it: the read answers as it did, so the write replays from its record.
    const again = hostFor(memory, undefined, { stores, continuesRun: true });
    const [, reread] = (await again.call('tool.memory.Get', ['/ingest/x'])) as [ToolValue, number];
    expect(reread).toBe(0);
    expect(await again.call('tool.memory.CAS', ['/ingest/x', reread, 'taken'])).toEqual([true, 1]);
    expect(await again.call('tool.memory.Get', ['/ingest/x'])).toEqual(['taken', 1]);
    expect(again.log().map((entry) => entry.outcome)).toEqual(['replayed', 'replayed', 'ok']);
    // Without it (as before), the read sees the run's own write and the write diverges from its record.
    const naive = hostFor(memory, undefined, { stores });
    const [, live] = (await naive.call('tool.memory.Get', ['/ingest/x'])) as [ToolValue, number];
    expect((await naive.fail('tool.memory.CAS', ['/ingest/x', live, 'taken'])).code).toBe('TOOL_REPLAY_DIVERGED');
    // A continued run whose read differs from the journal diverges there, before any write.
    const other = hostFor(memory, undefined, { stores, continuesRun: true });
    expect((await other.fail('tool.memory.Get', ['/ingest/y'])).code).toBe('TOOL_REPLAY_DIVERGED');
  });

  it("counts a continued run's replayed calls against the limits, as the run it continues counted them", async () => {
    const memory = [createMemoryTools()];
    const limited = { allow: ['**'], grants: ['*:*'], limits: { perSession: 3 } };
    const first = hostFor(memory, limited, { stores, journalReads: true, session: 'limited' });
    await first.call('tool.memory.Get', ['/k']);
    await first.call('tool.memory.CAS', ['/k', 0, 'v']);
    // The run is cut; the host continuing it starts from the session's counts without it (its calls were never decided).
    const again = hostFor(memory, limited, { stores, continuesRun: true, session: 'limited' });
    await again.call('tool.memory.Get', ['/k']);
    await again.call('tool.memory.CAS', ['/k', 0, 'v']);
    expect(again.counters.session.total).toBe(2);
    expect(await again.call('tool.memory.Get', ['/k'])).toEqual(['v', 1]);
    // The fourth call of the session: refused, as it would have been had the run not been cut (it used to run).
    expect((await again.fail('tool.memory.Get', ['/k'])).code).toBe('POLICY_CALL_LIMIT');
  });

  it('journals nothing for a write that did not act, for a pure pack, or for a host not asked to', async () => {
    const memory = [createMemoryTools(), createStringTools()];
    // A write that fails (a value over the limit): the read before it is not journaled, so a later run reads afresh.
    const failing = hostFor([createMemoryTools({ maxValueBytes: 8 })], undefined, { stores, journalReads: true, session: 'fails' });
    await failing.call('tool.memory.Get', ['/k']);
    expect((await failing.fail('tool.memory.CAS', ['/k', 0, 'far too long a value'])).code).toBe('TOOL_ARGUMENT_INVALID');
    expect(await stores.idempotence.lookup('fails', 1, 0)).toBeUndefined();
    // A pure pack's call computes the same again: not journaled; the memory read beside it is.
    const mixed = hostFor(memory, undefined, { stores, journalReads: true, session: 'mixed' });
    await mixed.call('tool.str.ToUpper', ['x']);
    await mixed.call('tool.memory.Get', ['/k']);
    await mixed.call('tool.memory.CAS', ['/k', 0, 'v']);
    expect(await stores.idempotence.lookup('mixed', 1, 0)).toBeUndefined();
    expect(await stores.idempotence.lookup('mixed', 1, 1)).toMatchObject({ tool: 'tool.memory.get' });
    // Not asked to journal (an MCP server's host, a one-off run): nothing but the write.
    const plain = hostFor(memory, undefined, { stores, session: 'plain' });
    await plain.call('tool.memory.Get', ['/k']);
    await plain.call('tool.memory.CAS', ['/k', 0, 'v']);
    expect(await stores.idempotence.lookup('plain', 1, 0)).toBeUndefined();
    expect(await stores.idempotence.lookup('plain', 1, 1)).toMatchObject({ tool: 'tool.memory.cas' });
  });

  it("removes the session's records of earlier turns older than asked, by the store's clock, at a run's first write and only then", async () => {
    const memory = [createMemoryTools()];
    // The store's clock, which stamps the records and measures their age; the hosts' own clocks do not count.
    let offset = 0;
    const aged = openSqliteStore(path.join(directory, 'aged.sqlite'), { clock: { now: () => Date.now() + offset } });
    const reader = new DatabaseSync(aged.file);
    onTestFinished(() => {
      reader.close();
      aged.close();
    });
    const count = (session: string): number => Number((reader.prepare('SELECT count(*) AS n FROM idempotence WHERE session = ?').get(session) as { n: number }).n);
    const turns = (session: string) => reader.prepare('SELECT turn FROM idempotence WHERE session = ? ORDER BY turn, call_index').all(session).map((row) => row.turn);
    const turn = (index: number, extra: Parameters<typeof hostFor>[2] = {}) => hostFor(memory, undefined, { stores: aged, journalReads: true, pruneEarlierTurnsAfterMs: 30_000, turn: index, ...extra });
    // Turn 1: a read and a write (2 records); turn 2 only reads, so it writes nothing and removes nothing.
    const first = turn(1);
    await first.call('tool.memory.CAS', ['/k', (((await first.call('tool.memory.Get', ['/k'])) as [ToolValue, number])[1]), 'one']);
    await turn(2).call('tool.memory.Get', ['/k']);
    await hostFor(memory, undefined, { stores: aged, session: 'other' }).call('tool.memory.CAS', ['/k2', 0, 'x']);
    expect([count('s1'), count('other')]).toEqual([2, 1]);
    // Records younger than asked stay, however far on the host's own clock is: a host that stalled may still run turn 1.
    await turn(3, { clock: { now: () => Date.now() + 3_600_000 } }).call('tool.memory.CAS', ['/k', 1, 'three']);
    expect(turns('s1')).toEqual([1, 1, 3]);
    // A minute on, by the store's clock: turn 4's first write removes the older turns' records before it claims its own.
    offset = 60_000;
    const fourth = turn(4);
    await fourth.call('tool.memory.CAS', ['/k', 2, 'four']);
    expect(turns('s1')).toEqual([4]);
    // Once a run: an old record of an earlier turn made since is left by the run's next write.
    await aged.idempotence.record({ session: 's1', turn: 2, callIndex: 9, tool: 'tool.memory.cas', argumentsJson: '{}', result: null });
    offset = 120_000;
    await fourth.call('tool.memory.CAS', ['/k', 3, 'five']);
    expect(turns('s1')).toEqual([2, 4, 4]);
    // Another session's records are its own; a host not asked to keeps every earlier turn's.
    expect(count('other')).toBe(1);
    await hostFor(memory, undefined, { stores: aged, turn: 5 }).call('tool.memory.CAS', ['/k', 4, 'six']);
    expect(turns('s1')).toEqual([2, 4, 4, 5]);
    // A store that cannot remove them (it fails, or has no forgetBefore) leaves them, and the write still acts once.
    offset = 180_000;
    const broken = { ...aged, idempotence: { ...aged.idempotence, forgetBefore: () => Promise.reject(new Error('disk full')) } };
    expect(await turn(6, { stores: broken }).call('tool.memory.CAS', ['/k', 5, 'seven'])).toEqual([true, 6]);
    const { forgetBefore: _none, ...without } = aged.idempotence;
    expect(await turn(7, { stores: { ...aged, idempotence: without } }).call('tool.memory.CAS', ['/k', 6, 'eight'])).toEqual([true, 7]);
    expect(turns('s1')).toEqual([2, 4, 4, 5, 6, 7]);
    offset = 240_000;
    await turn(8).call('tool.memory.CAS', ['/k', 7, 'nine']);
    expect(turns('s1')).toEqual([8]);
  });

  it('asks beforeWrite before a write acts: a rejection stops it with TOOL_CANCELLED, acting and claiming nothing; reads do not ask', async () => {
    let asked = 0;
    let refuse: Error | undefined;
    const host = hostFor([pack], undefined, { stores, beforeWrite: async () => {
      asked += 1;
      if (refuse !== undefined) throw refuse;
    } });
    expect(await host.call('tool.demo.Echo', ['a'])).toBe('a');
    expect(await host.call('tool.demo.Bump', [2])).toBe(2);
    expect(asked).toBe(1);
    refuse = new Error('another host took over the lease on session s1');
    const error = await host.fail('tool.demo.Bump', [3]);
    expect(error).toMatchObject({ code: 'TOOL_CANCELLED', message: 'tool.demo.Bump was not started: another host took over the lease on session s1' });
    expect(effects).toBe(2);
    expect(await stores.idempotence.lookup('s1', 1, 2)).toBeUndefined();
    expect(await host.call('tool.demo.Echo', ['b'])).toBe('b');
    expect(asked).toBe(2);
  });

  it('does not record failed calls, so a retry acts', async () => {
    const host = hostFor([pack], { allow: ['**'], limits: { tools: { 'tool.demo.bump': { perTurn: 0 } } } }, { stores });
    expect((await host.fail('tool.demo.Bump', [1])).code).toBe('POLICY_CALL_LIMIT');
    expect(await stores.idempotence.lookup('s1', 1, 0)).toBeUndefined();
    expect(await hostFor([pack], undefined, { stores }).call('tool.demo.Bump', [1])).toBe(1);
  });
});

describe('createToolHost: replays are exclusive and free (review findings 5 and 6)', () => {
  let directory: string;
  let file: string;
  const opened: SqliteToolStore[] = [];
  const openStore = (): SqliteToolStore => {
    const store = openSqliteStore(file);
    opened.push(store);
    return store;
  };
  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'askloop-host-'));
    file = path.join(directory, 'tools.sqlite');
  });
  afterEach(() => {
    for (const store of opened.splice(0)) store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('two hosts on one SQLite file at the same (session, turn, call index): one acts, the other gets TOOL_REPLAY_IN_PROGRESS', async () => {
    effects = 10;
    const a = hostFor([pack], undefined, { stores: openStore() });
    const b = hostFor([pack], undefined, { stores: openStore() });
    const outcomes = await Promise.allSettled([a.call('tool.demo.Bump', [1]), b.call('tool.demo.Bump', [1])]);
    expect(effects).toBe(11);
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: 11 });
    expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: { code: 'TOOL_REPLAY_IN_PROGRESS' } });
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe(
      'tool.demo.Bump: call 0 of turn 1 in session s1 was started and has not finished: another host is running it, or the run that started it was cut short and its outcome is unknown; refusing to act twice',
    );
    // Once the first call has finished, a replay gets its result.
    expect(await hostFor([pack], undefined, { stores: openStore() }).call('tool.demo.Bump', [1])).toBe(11);
    expect(effects).toBe(11);
  });

  it('a call that throws releases its claim deterministically, so a replay acts again', async () => {
    const stores = openStore();
    const error = await hostFor([pack], undefined, { stores }).fail('tool.demo.FailingWrite', []);
    expect(error.code).toBe('TOOL_FAILED');
    expect(await stores.idempotence.claim({ session: 's1', turn: 1, callIndex: 0, tool: 'tool.demo.failingwrite', argumentsJson: '{"args":{},"rest":[]}' })).toEqual({ state: 'claimed' });
  });

  it('a write whose record fails says it acted and leaves its slot pending (walkthrough: only "store idempotence record failed")', async () => {
    const stores = openStore();
    const failingRecord = { ...stores, idempotence: { ...stores.idempotence, claim: stores.idempotence.claim.bind(stores.idempotence), release: stores.idempotence.release.bind(stores.idempotence), lookup: stores.idempotence.lookup.bind(stores.idempotence), record: () => Promise.reject(new ToolError('STORE_FAILED', 'store idempotence record failed: database is locked')) } };
    const error = await hostFor([pack], undefined, { stores: failingRecord }).fail('tool.demo.Bump', [1]);
    expect(effects).toBe(1);
    expect(error.code).toBe('STORE_FAILED');
    expect(error.message).toBe(
      'tool.demo.Bump acted, but its result could not be recorded (store idempotence record failed: database is locked); call 0 of turn 1 in session s1 stays pending, so a replay of this turn refuses it (TOOL_REPLAY_IN_PROGRESS) rather than act twice',
    );
    expect((await hostFor([pack], undefined, { stores }).fail('tool.demo.Bump', [1])).code).toBe('TOOL_REPLAY_IN_PROGRESS');
    expect(effects).toBe(1);
  });

  it('a replayed call returns its record without using up a call limit', async () => {
    const stores = openStore();
    const sessionCounter = createCallCounter();
    const policy = { allow: ['**'], limits: { perSession: 1 } };
    expect(await hostFor([pack], policy, { stores, sessionCounter }).call('tool.demo.Bump', [1])).toBe(1);
    const replay = hostFor([pack], policy, { stores, sessionCounter });
    expect(await replay.call('tool.demo.Bump', [1])).toBe(1);
    expect(replay.log().map((entry) => entry.outcome)).toEqual(['replayed']);
    expect(sessionCounter.total).toBe(1);
    // A call that really runs is still counted and limited.
    expect((await replay.fail('tool.demo.Bump', [1])).code).toBe('POLICY_CALL_LIMIT');
    expect(effects).toBe(1);
  });

  it('refuses a host without a session id or with a turn that is no index, before any call (walkthrough: the first write failed in the store)', () => {
    const registry = createToolRegistry([createStringTools()]);
    const policy = createPolicy({ allow: ['**'] });
    const refusal = (session: unknown, turn: unknown) => {
      try {
        createToolHost({ registry, policy, session, turn } as never);
      } catch (error) {
        return [(error as { code?: string }).code, (error as Error).message];
      }
      return undefined;
    };
    expect(refusal(undefined, 1)).toEqual(['TOOL_SPEC_INVALID', "createToolHost(): session must be the session's id, a non-empty text, got undefined"]);
    expect(refusal('', 1)?.[0]).toBe('TOOL_SPEC_INVALID');
    // Every write's record and every scratch entry is keyed by it, and no store keeps U+0000 (PostgreSQL cannot).
    expect(refusal('sid\u00001', 1)).toEqual(['TOOL_SPEC_INVALID', 'createToolHost(): session holds the NUL character (U+0000) at index 3, which no store keeps; use a session id without the NUL character']);
    // A lone surrogate is kept as U+FFFD by every store, so two sessions would share their records and scratch entries.
    expect(refusal('sid\uDC001', 1)).toEqual(['TOOL_SPEC_INVALID', 'createToolHost(): session is not well-formed text: the character at index 3 is half of a surrogate pair (U+DC00) without its other half, which a store keeps as U+FFFD; use a session id that is well-formed text']);
    expect(refusal('s', Number.NaN)).toEqual(['TOOL_SPEC_INVALID', "createToolHost(): turn must be the turn's index, a whole number >= 0, got null"]);
    expect(refusal('s', 1.5)?.[0]).toBe('TOOL_SPEC_INVALID');
    expect(refusal('s', 'one')?.[0]).toBe('TOOL_SPEC_INVALID');
    expect(refusal('s', 0)).toBeUndefined();
  });
});
