/**
 * `checkPlugins`: the plugin checks of `createAskLoop` without a controller, so a host that only lists or checks
 * tools refuses the lists a run would, with the same error — and starts nothing.
 */
import { createScriptedProvider } from '@askloop/providers';
import { defineTool, defineToolPack } from '@askloop/tools';
import { describe, expect, it } from 'vitest';
import { checkPlugins, createAskLoop, createMemoryTranscriptStore, definePlugin, type AskLoopPlugin } from '../src/index.ts';
import { isLoopError } from '../src/errors/loop-error.ts';
import { testPlugin } from './test-plugin.ts';

const fieldsOf = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (error) {
    return isLoopError(error) ? { code: error.code, message: error.message, plugin: error.plugin, pluginIndex: error.pluginIndex, clashIndex: error.clashIndex } : error;
  }
  return 'accepted';
};

const provider = (name: string) => createScriptedProvider({ name, models: { m: [] } });
const agent = (name: string) => ({ name, model: 'scripted:m' });
const plugin = (name: string, fields: Partial<AskLoopPlugin> = {}): AskLoopPlugin => definePlugin({ name, specificationVersion: 'v1', ...fields });
const tool = defineTool({ name: 'tool.kv.get', description: 'd', args: [], returns: 'any' }, () => 1);

describe('checkPlugins', () => {
  const base = testPlugin({ m: [] });
  it.each<[string, unknown[]]>([
    ['a provider name another plugin has', [base, plugin('acme', { providers: { scripted: provider('scripted') } })]],
    ['a provider under another key', [base, plugin('acme', { providers: { acme: provider('other') } })]],
    ['an agent name another plugin has', [plugin('one', { agents: { x: agent('x') } }), base, plugin('two', { agents: { x: agent('x') } })]],
    ['an agent under another key', [base, plugin('one', { agents: { x: agent('y') } })]],
    ['a tool source named as a pack', [base, plugin('src', { toolSources: [{ name: 'test', toolPacks: async () => [] }] })]],
    ['a plugin listed twice', [base, { ...base }]],
    ['a field of the wrong shape', [base, { name: 'bad', specificationVersion: 'v1', toolPacks: {} }]],
    ['a factory not called', [base, () => base]],
    ['two tools of one name in one pack', [base, plugin('kv', { toolPacks: [defineToolPack('kv', [tool]), defineToolPack('kv2', [tool])] })]],
  ])('refuses %s as createAskLoop does, with the same message and positions', (_, plugins) => {
    const byLoop = fieldsOf(() => createAskLoop({ plugins: plugins as AskLoopPlugin[], store: createMemoryTranscriptStore() }));
    expect(byLoop).toMatchObject({ code: 'LOOP_PLUGIN_INVALID' });
    expect(fieldsOf(() => checkPlugins(plugins as AskLoopPlugin[]))).toEqual(byLoop);
  });

  it('accepts what createAskLoop accepts, and lists no tool source (no MCP server is started)', () => {
    let listed = 0;
    const source = { name: 'srv', toolPacks: async () => { listed += 1; return []; } };
    expect(fieldsOf(() => checkPlugins([base, plugin('src', { toolSources: [source], agents: { w: agent('w') } })]))).toBe('accepted');
    expect(listed).toBe(0);
  });
});
