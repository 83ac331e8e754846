/**
 * Per-tool limit keys (`policy.limits.tools`) are checked against the real
 * tool registry — the built-in packs and the tools an MCP-like tool source
 * lists — when a session starts: a well-formed key naming no tool refuses
 * the run with `LOOP_AGENT_INVALID` (naming the key and the tool it probably
 * meant), before any model is made or called and with nothing stored.
 */
import { createSandboxPool } from '@askloop/interpreter';
import { createScriptedProvider, type Provider } from '@askloop/providers';
import { defineTool, defineToolPack } from '@askloop/tools';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../src/agent/agent-definition.ts';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { builtinPlugin } from '../src/plugin/builtin-plugin.ts';
import { definePlugin } from '../src/plugin/plugin.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

const done = envelope(['command', '  emit "<<<LOOP:DONE>>> limited"', 'endcommand'].join('\n'));

/** The built-in packs (with `tool.http.Fetch`), a scripted model that counts the models made, and an MCP-like source listing `tool.docs.Search`. */
function setup(agents: Record<string, AgentDefinition> = {}) {
  const made: string[] = [];
  const scripted = createScriptedProvider({ models: { m: [done, done] } });
  const counting: Provider = { ...scripted, name: 'scripted', languageModel: (id, options) => (made.push(id), scripted.languageModel(id, options)) };
  const models = definePlugin({ name: 'models', specificationVersion: 'v1', providers: { scripted: counting }, agents });
  const search = defineToolPack('docs', [defineTool({ name: 'tool.docs.Search', description: 'Searches the docs.', args: [{ name: 'q', type: 'string' }], returns: 'string' }, (args) => `found ${String(args.q)}`)]);
  const mcp = definePlugin({ name: 'mcp', specificationVersion: 'v1', toolSources: [{ name: 'docs', toolPacks: async () => [search] }] });
  const store = createMemoryTranscriptStore();
  const loop = createAskLoop({ plugins: [builtinPlugin({ http: {}, providers: [] }), models, mcp], store, pool });
  return { loop, store, made };
}

const agentLimiting = (tools: Record<string, { perTurn?: number; perSession?: number }>): AgentDefinition => ({ name: 'worker', model: 'scripted:m', policy: { allow: ['tool.http.*', 'tool.docs.*'], limits: { tools } } });

describe('per-tool limit keys against the tool registry', () => {
  it('refuses a run whose limit key names no tool, naming the key and the tool meant, storing nothing and making no model', async () => {
    const { loop, store, made } = setup();
    const run = loop.run({ agent: agentLimiting({ 'tool.http.Fecth': { perTurn: 1 } }), task: 'fetch once' });
    await expect(run).rejects.toMatchObject({ code: 'LOOP_AGENT_INVALID' });
    await expect(run).rejects.toThrow("agent 'worker': policy: limits.tools key 'tool.http.Fecth' names no registered tool; did you mean tool.http.Fetch?");
    expect(await store.listSessions()).toEqual([]);
    expect(made).toEqual([]);
    await loop.close();
  });

  it('refuses `create` (for step-driven workers) alike, and a key with no close tool without a guess', async () => {
    const { loop, store, made } = setup();
    await expect(loop.create({ agent: agentLimiting({ 'tool.docs.Serch': { perSession: 2 } }), task: 'x' })).rejects.toThrow("limits.tools key 'tool.docs.Serch' names no registered tool; did you mean tool.docs.Search?");
    const unknown = loop.run({ agent: agentLimiting({ 'tool.weather.Forecast': { perTurn: 1 } }), task: 'x' });
    await expect(unknown).rejects.toMatchObject({ code: 'LOOP_AGENT_INVALID' });
    await expect(unknown).rejects.toThrow(/limits\.tools key 'tool\.weather\.Forecast' names no registered tool \(a limit/);
    expect(await store.listSessions()).toEqual([]);
    expect(made).toEqual([]);
    await loop.close();
  });

  it("refuses a run whose agent may ask one with such a key (the child's turn would fail inside the parent's paid turn), and leaves an asked name no plugin defines to the ask", async () => {
    const worker = agentLimiting({ 'tool.http.Fecth': { perTurn: 1 } });
    const boss: AgentDefinition = { name: 'boss', model: 'scripted:m', asks: ['nobody', 'lead'] };
    // boss (depth 0) asks lead (depth 1), which may ask worker while 1 is below its own maxAskDepth.
    const { loop, store, made } = setup({ worker, lead: { name: 'lead', model: 'scripted:m', asks: ['worker'], maxAskDepth: 2 } });
    const run = loop.run({ agent: boss, task: 'delegate' });
    await expect(run).rejects.toMatchObject({ code: 'LOOP_AGENT_INVALID' });
    await expect(run).rejects.toThrow("agent 'worker': policy: limits.tools key 'tool.http.Fecth' names no registered tool; did you mean tool.http.Fetch?");
    expect(await store.listSessions()).toEqual([]);
    expect(made).toEqual([]);
    await loop.close();
    // A lead whose own maxAskDepth stops it at depth 1 never reaches worker: nothing to refuse.
    const shallow = setup({ worker, lead: { name: 'lead', model: 'scripted:m', asks: ['worker'], maxAskDepth: 1 } });
    expect(await shallow.loop.run({ agent: boss, task: 'delegate' })).toMatchObject({ status: 'DONE' });
    await shallow.loop.close();
  });

  it('runs an agent whose keys name registered tools: built-in, from a tool source, in any case or without `tool.`', async () => {
    const { loop } = setup();
    const result = await loop.run({ agent: agentLimiting({ 'tool.http.Fetch': { perTurn: 1 }, 'docs.search': { perSession: 3 } }), task: 'x' });
    expect(result).toMatchObject({ status: 'DONE', result: 'limited' });
    await loop.close();
  });
});
