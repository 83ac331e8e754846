import { describe, expect, it } from 'vitest';
import { createScriptedModel, createScriptedProvider } from './scripted-provider.ts';

describe('createScriptedModel', () => {
  it('replies from the list in order, then reports exhaustion', async () => {
    const model = createScriptedModel(['one', { text: 'two', usage: { inputTokens: 3, outputTokens: 4 }, finishReason: 'length' }]);
    expect((await model.generate({ prompt: 'p' })).text).toBe('one');
    expect(await model.generate({ prompt: 'p' })).toMatchObject({ text: 'two', usage: { inputTokens: 3, outputTokens: 4 }, finishReason: 'length' });
    await expect(model.generate({ prompt: 'p' })).rejects.toMatchObject({ code: 'PROVIDER_SCRIPT_EXHAUSTED', provider: 'scripted' });
  });

  it('says how many replies the script has, which model call ran out, and what to do', async () => {
    const model = createScriptedModel(['one']);
    await model.generate({ prompt: 'p' });
    await expect(model.generate({ prompt: 'p' })).rejects.toThrow(
      'no reply left: the script has 1 reply and this is call 2 to the model (one a turn, and one more for each retry); add replies to the script',
    );
  });

  it('can repeat the last reply', async () => {
    const model = createScriptedModel(['only'], { whenExhausted: 'repeat-last' });
    await model.generate({ prompt: 'p' });
    expect((await model.generate({ prompt: 'p' })).text).toBe('only');
  });

  it('replies with a function of the turn', async () => {
    const model = createScriptedModel((turn) => `turn ${turn.index}: ${turn.prompt} (${turn.settings.temperature})`);
    expect((await model.generate({ prompt: 'hi', settings: { temperature: 0 } })).text).toBe('turn 0: hi (0)');
  });

  it('simulates failures through the real retry path', async () => {
    const model = createScriptedModel([{ error: 'PROVIDER_RATE_LIMIT', retryAfterMs: 5 }, 'recovered'], { retry: { sleep: async () => {} } });
    expect(await model.generate({ prompt: 'p' })).toMatchObject({ text: 'recovered', attempts: 2 });
    const auth = createScriptedModel([{ error: 'PROVIDER_AUTH' }]);
    await expect(auth.generate({ prompt: 'p' })).rejects.toMatchObject({ code: 'PROVIDER_AUTH', attempts: 1 });
  });

  it('streams word by word and estimates usage', async () => {
    const deltas: string[] = [];
    const result = await createScriptedModel(['emit "hi"\nDONE']).generate({ prompt: '12345678', onText: (delta) => deltas.push(delta) });
    expect(deltas.join('')).toBe('emit "hi"\nDONE');
    expect(deltas).toEqual(['emit ', '"hi"\n', 'DONE']);
    expect(result.usage).toEqual({ inputTokens: 3, outputTokens: 4 });
  });

  it('times out a slow reply', async () => {
    const model = createScriptedModel([{ text: 'late', delayMs: 10_000 }], { timeoutMs: 20 });
    await expect(model.generate({ prompt: 'p' })).rejects.toMatchObject({ code: 'PROVIDER_TIMEOUT' });
  });
});

describe('scripted settings a JavaScript caller can get wrong', () => {
  it('refuses settings without models with PROVIDER_CONFIG, naming what was given and the shape', () => {
    expect(() => createScriptedProvider({ replies: [] } as never)).toThrow(
      expect.objectContaining({ code: 'PROVIDER_CONFIG', message: expect.stringMatching(/^\[scripted\] PROVIDER_CONFIG: createScriptedProvider needs settings\.models, an object mapping model ids to replies, .*got undefined \(given: replies\)$/) }),
    );
    expect(() => createScriptedProvider(undefined as never)).toThrow(expect.objectContaining({ code: 'PROVIDER_CONFIG', message: expect.stringContaining('got undefined') }));
    expect(() => createScriptedProvider({ models: ['a'] } as never)).toThrow(expect.objectContaining({ code: 'PROVIDER_CONFIG', message: expect.stringContaining('got a list') }));
  });

  it('refuses a model whose replies are neither a list nor a function, naming the model', () => {
    expect(() => createScriptedProvider({ name: 'mine', models: { demo: 'hello' } } as never)).toThrow(
      expect.objectContaining({ code: 'PROVIDER_CONFIG', provider: 'mine', message: '[mine] PROVIDER_CONFIG: settings.models["demo"] must be a list of replies or a function of the turn, got "hello"' }),
    );
    expect(() => createScriptedModel({ text: 'x' } as never)).toThrow(expect.objectContaining({ code: 'PROVIDER_CONFIG', message: '[scripted] PROVIDER_CONFIG: createScriptedModel: its replies must be a list of replies or a function of the turn, got an object' }));
  });
});
