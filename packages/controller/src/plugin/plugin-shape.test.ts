/**
 * `pluginShapeProblem` is the check `createAskLoop` makes of a plugin, for a
 * host that loads plugins itself: any value, with the same verdicts. It took
 * only an object's fields before (a `null` threw a TypeError, and `{}`, a
 * function or another specification version passed).
 */
import { describe, expect, it } from 'vitest';
import { createAskLoop } from '../create-ask-loop.ts';
import { createMemoryTranscriptStore } from '../store/memory-transcript-store.ts';
import { pluginShapeProblem } from './plugin-shape.ts';

function acmePlugin() {
  return { name: 'acme', specificationVersion: 'v1' };
}

describe('pluginShapeProblem', () => {
  it.each([
    ['null', null, 'it is null, not a plugin'],
    ['a string', 'acme', 'it is a string, not a plugin'],
    ['a list', [], 'it is a list, not a plugin'],
    ['a factory not called', acmePlugin, 'it is a function, not a plugin: a plugin module\'s export is often a factory; call it (acmePlugin())'],
    ['no name', {}, 'it has no name'],
    ['another specification version', { name: 'x', specificationVersion: 'v2' }, `it has specificationVersion "v2"; this controller knows 'v1'`],
    ['a field of the wrong shape', { name: 'x', specificationVersion: 'v1', toolPacks: 'str' }, 'toolPacks'],
  ])('names what is wrong with %s, as createAskLoop refuses it', (_, value, said) => {
    expect(pluginShapeProblem(value)).toContain(said);
    expect(() => createAskLoop({ plugins: [value as never], store: createMemoryTranscriptStore() })).toThrow(expect.objectContaining({ code: 'LOOP_PLUGIN_INVALID' }));
  });

  it('passes a plugin the loop takes', () => {
    expect(pluginShapeProblem(acmePlugin())).toBeUndefined();
  });
});
