/** Plugin resolution, hook composition and the errors that name the plugin. */
import { createSandboxPool } from '@askloop/interpreter';
import { createScriptedProvider } from '@askloop/providers';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { builtinPlugin } from '../src/plugin/builtin-plugin.ts';
import { isLoopError } from '../src/errors/loop-error.ts';
import type { LoopEvent } from '../src/events/loop-event.ts';
import { definePlugin, type AskLoopPlugin } from '../src/plugin/plugin.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));
const agent = { name: 'worker', model: 'scripted:m' };
const codeOf = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (error) {
    return isLoopError(error) ? { code: error.code, plugin: error.plugin } : error;
  }
  return undefined;
};
const loopWith = (plugins: AskLoopPlugin[]) => createAskLoop({ plugins, store: createMemoryTranscriptStore(), pool });

describe('plugin resolution', () => {
  it('refuses duplicate names, unknown versions and mismatched provider keys', () => {
    const base = testPlugin({ m: [] });
    expect(codeOf(() => loopWith([base, { ...base }]))).toEqual({ code: 'LOOP_PLUGIN_INVALID', plugin: 'test' });
    expect(codeOf(() => loopWith([{ ...base, specificationVersion: 'v2' as 'v1' }]))).toEqual({ code: 'LOOP_PLUGIN_INVALID', plugin: 'test' });
    const provider = createScriptedProvider({ models: { m: [] } });
    expect(codeOf(() => loopWith([definePlugin({ name: 'p', specificationVersion: 'v1', providers: { other: provider } })]))).toEqual({ code: 'LOOP_PLUGIN_INVALID', plugin: 'p' });
    const twice = definePlugin({ name: 'again', specificationVersion: 'v1', providers: { scripted: provider } });
    expect(codeOf(() => loopWith([base, twice]))).toEqual({ code: 'LOOP_PLUGIN_INVALID', plugin: 'again' });
  });

  it('names the entry that is no plugin: a factory not called, null, a plugin listed twice', () => {
    const base = testPlugin({ m: [] });
    function acmePlugin(): AskLoopPlugin {
      return base;
    }
    const messageOf = (plugins: unknown[]) => {
      try {
        loopWith(plugins as AskLoopPlugin[]);
      } catch (error) {
        return error as { code: string; message: string };
      }
      return undefined;
    };
    expect(messageOf([base, acmePlugin])).toMatchObject({ code: 'LOOP_PLUGIN_INVALID', message: expect.stringContaining('plugins[1] is a function, not a plugin: a plugin module\'s export is often a factory; call it (acmePlugin())') });
    expect(messageOf([null])).toMatchObject({ code: 'LOOP_PLUGIN_INVALID', message: expect.stringContaining('plugins[0] is null, not a plugin; build one with definePlugin') });
    expect(messageOf([{ specificationVersion: 'v1' }])).toMatchObject({ message: expect.stringContaining('plugins[0] has no name') });
    // An async factory's result not awaited: it read "plugins[1] has no name; give it one with definePlugin(…)".
    expect(messageOf([base, Promise.resolve(base)])).toMatchObject({ code: 'LOOP_PLUGIN_INVALID', message: expect.stringContaining("plugins[1] is a promise, not a plugin: an async plugin factory's result must be awaited") });
    expect(messageOf([base, { ...base }])).toMatchObject({ code: 'LOOP_PLUGIN_INVALID', message: expect.stringContaining("plugin 'test' is listed twice (plugins[0] and plugins[1])") });
  });

  it('gives the position of the plugin at fault, and in a clash the earlier one\'s, for a host to point at where each came from', () => {
    const base = testPlugin({ m: [] });
    const fieldsOf = (plugins: unknown[]) => {
      try {
        loopWith(plugins as AskLoopPlugin[]);
      } catch (error) {
        return isLoopError(error) ? { plugin: error.plugin, pluginIndex: error.pluginIndex, clashIndex: error.clashIndex, json: error.toJSON() } : error;
      }
      return undefined;
    };
    const other = definePlugin({ name: 'other', specificationVersion: 'v1' });
    expect(fieldsOf([other, base, { ...base }])).toMatchObject({ plugin: 'test', pluginIndex: 2, clashIndex: 1, json: { pluginIndex: 2, clashIndex: 1 } });
    const provider = createScriptedProvider({ models: { m: [] } });
    const again = definePlugin({ name: 'again', specificationVersion: 'v1', providers: { scripted: provider } });
    expect(fieldsOf([base, other, again])).toMatchObject({ plugin: 'again', pluginIndex: 2, clashIndex: 0 });
    // Not a clash: the position alone.
    expect(fieldsOf([other, definePlugin({ name: 'p', specificationVersion: 'v1', providers: { x: provider } })])).toMatchObject({ plugin: 'p', pluginIndex: 1, clashIndex: undefined });
    expect(fieldsOf([other, null])).toMatchObject({ plugin: undefined, pluginIndex: 1 });
  });

  const aTool = { spec: { name: 'tool.p.a', displayName: 'tool.p.A', description: 'd', effect: 'read', arguments: [], capabilities: [] }, handler: () => 1 };
  it.each([
    ['toolPacks an object', { toolPacks: {} }, 'toolPacks is an object, not a list of tool packs'],
    ['a pack without tools', { toolPacks: [{ name: 'weird' }] }, "toolPacks[0].tools (pack 'weird') is missing, not a list"],
    ['a tool without a handler', { toolPacks: [{ name: 'p', tools: [{ spec: aTool.spec }] }] }, 'toolPacks[0].tools[0].handler is missing, not a function'],
    ['a tool without capabilities', { toolPacks: [{ name: 'p', tools: [{ ...aTool, spec: { ...aTool.spec, capabilities: undefined } }] }] }, 'toolPacks[0].tools[0].spec.capabilities is missing, not a list'],
    ['a tool with a malformed need', { toolPacks: [{ name: 'p', tools: [{ ...aTool, spec: { ...aTool.spec, capabilities: ['fs:read', 'notes'] } }] }] }, "toolPacks[0].tools[0].spec.capabilities[1] (tool.p.A): capability 'notes' has no verbs"],
    ['a null provider', { providers: { x: null } }, 'providers.x is null, not a provider'],
    ['a provider without languageModel', { providers: { x: { name: 'x' } } }, 'providers.x.languageModel is missing, not a function'],
    ['providers a list', { providers: [] }, 'providers is a list, not an object of providers by name'],
    ['a tool source without toolPacks', { toolSources: [{ name: 's' }] }, 'toolSources[0].toolPacks is missing, not a function'],
    ['an agent that is a string', { agents: { a: 'worker' } }, 'agents.a is a string, not an agent definition'],
    ['a hook that is not a function', { hooks: { decide: 'no' } }, 'hooks.decide is a string, not a function'],
    ['a provider name with a colon', { providers: { 'a:b': { name: 'a:b', languageModel: () => ({}) } } }, `providers has the name "a:b", which no 'name:model' id could reach`],
    ['toolpacks in other letters', { toolpacks: [] }, 'toolpacks is not a field the loop knows; did you mean toolPacks?'],
    ['tools for toolPacks', { tools: [] }, 'tools is not a field the loop knows; did you mean toolPacks? (the fields: name, specificationVersion, providers, toolPacks, toolSources, agents, hooks)'],
    ['a hook name the loop does not call', { hooks: { onTurnStart: () => {} } }, 'hooks.onTurnStart is not a field the loop knows; did you mean hooks.turnStart? (the fields: turnStart, programChecked, decide, event)'],
  ])('refuses a plugin whose fields have the wrong shape (%s) before anything runs, naming the field', (_, fields, message) => {
    const plugin = { name: 'bad', specificationVersion: 'v1', ...fields } as unknown as AskLoopPlugin;
    let thrown: unknown;
    try {
      loopWith([plugin]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'LOOP_PLUGIN_INVALID', plugin: 'bad', message: expect.stringContaining(`plugin 'bad': ${message}`) });
  });

  it('takes a decide HALT whose message is empty text, as its type allows', async () => {
    const judge = definePlugin({ name: 'judge', specificationVersion: 'v1', hooks: { decide: () => ({ kind: 'HALT', reason: 'ERR_QUOTA', message: '' }) } });
    const loop = loopWith([testPlugin({ m: [program('emit "x"')] }), judge]);
    await expect(loop.run({ agent, task: 'x' })).resolves.toMatchObject({ status: 'HALT', reason: 'ERR_QUOTA' });
    await loop.close();
  });

  it("accepts a plugin's own fields (a version, a description) and a field or hook given as undefined", () => {
    const plugin = definePlugin({ name: 'acme', specificationVersion: 'v1', version: '1.2.0', description: 'tools of Acme', hooks: { decide: undefined } });
    expect(() => loopWith([plugin, { ...testPlugin({ m: [] }), toolSources: undefined, agent: undefined } as AskLoopPlugin])).not.toThrow();
  });

  it('names a tool that two plugins contribute as its author spelt it, not by its canonical lower-case name', () => {
    const upper = { name: 'mystr', tools: [{ ...aTool, spec: { ...aTool.spec, name: 'tool.str.toupper', displayName: 'tool.str.ToUpper' } }] };
    expect(() => loopWith([builtinPlugin(), definePlugin({ name: 'clash', specificationVersion: 'v1', toolPacks: [upper as never] })])).toThrow(
      "tool 'tool.str.ToUpper' of plugin 'clash' is already contributed by plugin 'builtin'",
    );
  });

  it('names both plugins when a tool source lists a pack or tool another plugin contributes (it read "tool pack \'str\' is registered twice", no plugin)', async () => {
    const str = { name: 'str', tools: [{ ...aTool, spec: { ...aTool.spec, name: 'tool.str.x', displayName: 'tool.str.X' } }] };
    const upper = { name: 'mine', tools: [{ ...aTool, spec: { ...aTool.spec, name: 'tool.p.a' } }] };
    const cases = [
      [[str], "plugin 'sourcing': its tool source 'live' listed the tool pack 'str', which plugin 'test' already contributes"],
      // The tool as its author spelt it (tool.p.A), not the canonical lower-case name the clash is found by.
      [[upper], "plugin 'sourcing': its tool source 'live' listed the tool 'tool.p.A' (pack 'mine'), which plugin 'static' already contributes"],
    ] as const;
    for (const [packs, message] of cases) {
      const store = createMemoryTranscriptStore();
      const source = { name: 'live', toolPacks: async () => packs };
      const statics = definePlugin({ name: 'static', specificationVersion: 'v1', toolPacks: [{ name: 'p', tools: [aTool] } as never] });
      const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "x"')] }), statics, definePlugin({ name: 'sourcing', specificationVersion: 'v1', toolSources: [source as never] })], store, pool });
      await expect(loop.run({ agent, task: 'x', sid: 'never' })).rejects.toMatchObject({ code: 'LOOP_PLUGIN_INVALID', plugin: 'sourcing', message: expect.stringContaining(message) });
      expect(await store.getSession('never')).toBeUndefined();
      await loop.close();
    }
  });

  it('refuses the packs a tool source lists in the wrong shape, before the session is stored', async () => {
    const store = createMemoryTranscriptStore();
    const source = { name: 'live', toolPacks: async () => [{ name: 'listed' }] };
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "x"')] }), definePlugin({ name: 'sourcing', specificationVersion: 'v1', toolSources: [source as never] })], store, pool });
    await expect(loop.run({ agent, task: 'x', sid: 'never' })).rejects.toMatchObject({ code: 'LOOP_PLUGIN_INVALID', plugin: 'sourcing', message: expect.stringContaining("its tool source 'live' listed toolPacks[0].tools (pack 'listed') is missing") });
    expect(await store.getSession('never')).toBeUndefined();
    await loop.close();
  });

  it('names unknown agents and providers', async () => {
    const loop = loopWith([testPlugin({ m: [] })]);
    await expect(loop.run({ agent: 'nobody', task: 'x' })).rejects.toMatchObject({ code: 'LOOP_AGENT_NOT_FOUND' });
    await expect(loop.run({ agent: { name: 'a', model: 'nowhere:m' }, task: 'x' })).rejects.toMatchObject({ code: 'LOOP_PROVIDER_NOT_FOUND', message: expect.not.stringContaining('did you mean') });
    // A slip of a registered provider's name is named, with the model id as it would read.
    await expect(loop.run({ agent: { name: 'a', model: 'sciprted:m:v2' }, task: 'x' })).rejects.toMatchObject({ code: 'LOOP_PROVIDER_NOT_FOUND', message: expect.stringContaining(`unknown provider "sciprted"; available: scripted; did you mean 'scripted:m:v2'?`) });
    await expect(loop.run({ agent: { name: 'a', model: 'scripted:m', policy: { allow: ['not a pattern ['] } }, task: 'x' })).rejects.toMatchObject({ code: 'LOOP_AGENT_INVALID' });
  });

  it('runs agents contributed by plugins', async () => {
    const loop = loopWith([testPlugin({ m: [program('emit "<<<LOOP:DONE>>> named"')] }, new Map(), { worker: agent })]);
    expect(await loop.run({ agent: 'worker', task: 'x' })).toMatchObject({ status: 'DONE', result: 'named' });
  });
});

describe('hooks', () => {
  it('lets programChecked deny a program before it runs', async () => {
    const gate = definePlugin({ name: 'gate', specificationVersion: 'v1', hooks: { programChecked: () => ({ kind: 'deny', message: 'no emits on Fridays' }) } });
    const loop = loopWith([testPlugin({ m: [program('emit "x"')] }), gate]);
    const result = await loop.run({ agent, task: 'x' });
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_PERMISSIONS' });
  });

  it('lets programChecked hold a program for approval', async () => {
    const gate = definePlugin({ name: 'gate', specificationVersion: 'v1', hooks: { programChecked: () => ({ kind: 'require-approval', message: 'check with ops' }) } });
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "<<<LOOP:DONE>>> ok"')] }), gate], store, pool });
    const paused = await loop.run({ agent, task: 'x' });
    expect(paused).toMatchObject({ status: 'PAUSED', reason: 'AWAITING_APPROVAL' });
    expect((await store.getSession(paused.sid))?.status).toBe('paused');
    await expect(loop.approve('missing')).rejects.toMatchObject({ code: 'LOOP_SESSION_NOT_FOUND' });
    expect(await loop.approve(paused.sid)).toMatchObject({ status: 'DONE', result: 'ok' });
    // The refusal says what the session is instead.
    await expect(loop.approve(paused.sid)).rejects.toMatchObject({ code: 'LOOP_APPROVAL_NOT_PENDING', message: `session ${paused.sid} is not paused for approval: it is done (its last decision: DONE)` });
  });

  it('lets a decide hook add a stop condition, first answer winning', async () => {
    const calls: string[] = [];
    const stop = definePlugin({
      name: 'stop',
      specificationVersion: 'v1',
      hooks: {
        turnStart: (turn) => void calls.push(`start ${turn.turnIndex}`),
        decide: (turn) => (turn.record.emits.includes('enough') ? { kind: 'DONE', result: 'stopped by plugin' } : undefined),
      },
    });
    const later = definePlugin({ name: 'later', specificationVersion: 'v1', hooks: { decide: () => ({ kind: 'HALT', reason: 'ERR_QUOTA', message: 'never reached' }) } });
    const loop = loopWith([testPlugin({ m: [program('emit "enough"')] }), stop, later]);
    expect(await loop.run({ agent, task: 'x' })).toMatchObject({ status: 'DONE', result: 'stopped by plugin' });
    expect(calls).toEqual(['start 1']);
  });

  it('rewraps a throwing hook as LOOP_PLUGIN_ERROR naming plugin and hook', async () => {
    const broken = definePlugin({ name: 'broken', specificationVersion: 'v1', hooks: { turnStart: () => { throw new Error('oops'); } } });
    const loop = loopWith([testPlugin({ m: [program('emit "x"')] }), broken]);
    await expect(loop.run({ agent, task: 'x' })).rejects.toMatchObject({ code: 'LOOP_PLUGIN_ERROR', plugin: 'broken', hook: 'turnStart' });
  });

  it('reports a throwing event hook without stopping the loop', async () => {
    const events: LoopEvent[] = [];
    const noisy = definePlugin({ name: 'noisy', specificationVersion: 'v1', hooks: { event: (event) => { if (event.type === 'decision') throw new Error('listener bug'); } } });
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "<<<LOOP:DONE>>> fine"')] }), noisy], store: createMemoryTranscriptStore(), pool, onEvent: (event) => events.push(event) });
    expect(await loop.run({ agent, task: 'x' })).toMatchObject({ status: 'DONE' });
    expect(events.find((event) => event.type === 'hook-error')).toMatchObject({ plugin: 'noisy', hook: 'event', message: 'listener bug' });
  });

  it('reports an async event hook that rejects, and ignores an async listener that rejects, without stopping the loop or the process', async () => {
    const events: LoopEvent[] = [];
    const noisy = definePlugin({ name: 'noisy', specificationVersion: 'v1', hooks: { event: async (event) => { if (event.type === 'decision') throw new Error('async listener bug'); } } });
    const loop = createAskLoop({
      plugins: [testPlugin({ m: [program('emit "<<<LOOP:DONE>>> fine"')] }), noisy],
      store: createMemoryTranscriptStore(),
      pool,
      onEvent: async (event) => {
        events.push(event);
        if (event.type === 'loop-end') throw new Error('caller bug');
      },
    });
    expect(await loop.run({ agent, task: 'x' })).toMatchObject({ status: 'DONE' });
    // The rejection is handled a microtask later: an unhandled one would fail this file (and end a host process).
    await new Promise((resolve) => setImmediate(resolve));
    expect(events.find((event) => event.type === 'hook-error')).toMatchObject({ plugin: 'noisy', hook: 'event', message: 'async listener bug' });
  });

  it.each([
    ['a string', 'deny'],
    ['a kind in other letters', { kind: 'Deny', message: 'no' }],
    ['an unknown kind', { kind: 'require_approval', message: 'hold' }],
    ['a deny without a message', { kind: 'deny' }],
    ['a deny whose message is not text', { kind: 'deny', message: 42 }],
    ['false', false],
  ])('fails closed on a programChecked answer the loop does not know (%s): LOOP_PLUGIN_ERROR, and the program does not run', async (_, answer) => {
    const effects = new Map<string, number>();
    const gate = definePlugin({ name: 'gate', specificationVersion: 'v1', hooks: { programChecked: () => answer as never } });
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('set n = tool.test.Bump("a")', 'emit "<<<LOOP:DONE>>> bumped"')] }, effects), gate], store: createMemoryTranscriptStore(), pool });
    await expect(loop.run({ agent: { ...agent, policy: { allow: ['tool.test.*'] } }, task: 'x' })).rejects.toMatchObject({
      code: 'LOOP_PLUGIN_ERROR',
      plugin: 'gate',
      hook: 'programChecked',
      message: expect.stringContaining("plugin 'gate' failed in programChecked: its answer is not one the loop knows:"),
    });
    expect(effects.get('a')).toBeUndefined();
    await loop.close();
  });

  it.each([
    ['a string', 'stop', /expected undefined or a decision/],
    ['a PAUSE', { kind: 'PAUSE', reason: 'AWAITING_APPROVAL', message: 'wait' }, /expected undefined or a decision/],
    ['a HALT reason that does not exist', { kind: 'HALT', reason: 'MY_REASON', message: 'stop' }, /HALT needs a reason of HALT_REASONS \(ERR_BUDGET, .*\), got "MY_REASON"/],
    ['a DONE without a result', { kind: 'DONE' }, /DONE needs a result, a string or null, got undefined/],
  ])('refuses a decide answer the loop does not know (%s) with LOOP_PLUGIN_ERROR instead of storing it', async (_, answer, message) => {
    const judge = definePlugin({ name: 'judge', specificationVersion: 'v1', hooks: { decide: () => answer as never } });
    const loop = loopWith([testPlugin({ m: [program('emit "x"')] }), judge]);
    await expect(loop.run({ agent, task: 'x' })).rejects.toMatchObject({ code: 'LOOP_PLUGIN_ERROR', plugin: 'judge', hook: 'decide', message: expect.stringMatching(message) });
    await loop.close();
  });

  it('lists tool sources before every turn', async () => {
    let listed = 0;
    const source = definePlugin({
      name: 'mcp',
      specificationVersion: 'v1',
      toolSources: [{ name: 'fake', toolPacks: async () => { listed += 1; return []; } }],
    });
    const loop = loopWith([testPlugin({ m: [program('emit "a"'), program('emit "<<<LOOP:DONE>>> b"')] }), source]);
    expect(await loop.run({ agent, task: 'x' })).toMatchObject({ status: 'DONE' });
    // Once before the session is stored, then before each of its two turns.
    expect(listed).toBe(3);
  });

  it('stores no session when a tool source cannot start', async () => {
    const broken = definePlugin({
      name: 'mcp',
      specificationVersion: 'v1',
      toolSources: [{ name: 'down', toolPacks: async () => { throw new Error('server did not start'); } }],
    });
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "<<<LOOP:DONE>>> never"')] }), broken], store, pool });
    await expect(loop.run({ agent, task: 'x' })).rejects.toMatchObject({ code: 'LOOP_PLUGIN_ERROR', plugin: 'mcp', hook: 'toolSources.down.toolPacks' });
    expect(await store.listSessions()).toEqual([]);
  });

  it('gives up waiting for a tool source that is slow to start when the signal aborts, storing nothing', async () => {
    let started = 0;
    // A server whose start never ends (one stuck starting would hold the call for its whole start timeout).
    const stuck = definePlugin({ name: 'mcp', specificationVersion: 'v1', toolSources: [{ name: 'slow', toolPacks: () => { started += 1; return new Promise<never>(() => {}); } }] });
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "<<<LOOP:DONE>>> never"')] }), stuck], store, pool });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(loop.run({ agent, task: 'x', signal: controller.signal })).rejects.toMatchObject({
      code: 'LOOP_CANCELLED',
      message: 'cancelled while the tool sources (MCP servers) started; no session was stored',
    });
    expect(await store.listSessions()).toEqual([]);
    // A signal aborted already: not even a start.
    await expect(loop.run({ agent, task: 'x', signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'LOOP_CANCELLED' });
    expect(started).toBe(1);
  });

  it('leaves a paused session as it was when the signal aborts while a tool source starts', async () => {
    const store = createMemoryTranscriptStore();
    const paused = await createAskLoop({ plugins: [testPlugin({ m: [program('emit "[[loop:await]]"')] })], store, pool }).run({ agent: { ...agent, dialect: 'v1' }, task: 'x' });
    const stuck = definePlugin({ name: 'mcp', specificationVersion: 'v1', toolSources: [{ name: 'slow', toolPacks: () => new Promise<never>(() => {}) }] });
    const loop = createAskLoop({ plugins: [testPlugin({ m: [] }), stuck], store, pool });
    await expect(loop.approve(paused.sid, { signal: AbortSignal.timeout(20) })).rejects.toMatchObject({
      code: 'LOOP_CANCELLED',
      message: `cancelled while the tool sources (MCP servers) started; nothing was decided and session ${paused.sid} is as it was`,
    });
    await expect(loop.resume(paused.sid, { signal: AbortSignal.timeout(20) })).rejects.toMatchObject({ code: 'LOOP_CANCELLED' });
    expect((await store.lastTurn(paused.sid))?.approval).toBeUndefined();
    expect((await store.getSession(paused.sid))?.status).toBe('paused');
  });

  it('records no approval when a tool source cannot start', async () => {
    const store = createMemoryTranscriptStore();
    const paused = await createAskLoop({ plugins: [testPlugin({ m: [program('emit "[[loop:await]]"')] })], store, pool }).run({ agent: { ...agent, dialect: 'v1' }, task: 'x' });
    expect(paused).toMatchObject({ status: 'PAUSED', reason: 'V1_AWAIT' });
    const broken = definePlugin({ name: 'mcp', specificationVersion: 'v1', toolSources: [{ name: 'down', toolPacks: async () => { throw new Error('server did not start'); } }] });
    const loop = createAskLoop({ plugins: [testPlugin({ m: [] }), broken], store, pool });
    await expect(loop.approve(paused.sid)).rejects.toMatchObject({ code: 'LOOP_PLUGIN_ERROR', hook: 'toolSources.down.toolPacks' });
    expect((await store.lastTurn(paused.sid))?.approval).toBeUndefined();
    expect((await store.getSession(paused.sid))?.status).toBe('paused');
  });
});
