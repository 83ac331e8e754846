import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../scripted/scripted-provider.ts';
import { streamGenerate } from './stream-generate.ts';

describe('streamGenerate', () => {
  it('yields the deltas and resolves the same result', async () => {
    const { textStream, result } = streamGenerate(createScriptedModel(['one two three']), { prompt: 'p' });
    const deltas: string[] = [];
    for await (const delta of textStream) deltas.push(delta);
    expect(deltas).toEqual(['one ', 'two ', 'three']);
    expect((await result).text).toBe('one two three');
  });

  it('throws the ProviderError from the iterator and rejects the result', async () => {
    const { textStream, result } = streamGenerate(createScriptedModel([{ error: 'PROVIDER_AUTH' }]), { prompt: 'p' });
    const iterate = async () => {
      for await (const _ of textStream) {
        // drain
      }
    };
    await expect(iterate()).rejects.toMatchObject({ code: 'PROVIDER_AUTH' });
    await expect(result).rejects.toMatchObject({ code: 'PROVIDER_AUTH' });
  });
});
