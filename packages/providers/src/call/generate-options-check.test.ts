/**
 * A call's options are checked before anything is sent (`PROVIDER_CONFIG`, naming the option): a misspelt option
 * (`promt`) sent a request without the envelope, a prompt that was no text was sent as it was, a misspelt or
 * mistyped setting was dropped or sent as given, and a call without options failed as PROVIDER_UNKNOWN.
 */
import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../scripted/scripted-provider.ts';

const refusal = async (options: unknown) => {
  let prompts = 0;
  const model = createScriptedModel(() => {
    prompts += 1;
    return 'ok';
  });
  try {
    await model.generate(options as never);
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { code, message, prompts };
  }
  return { code: 'none', message: '', prompts };
};

describe('generate options', () => {
  it.each([
    ['no options', undefined, "the call's options must be an object ({ prompt, system?, settings?, … }), got undefined"],
    ['a misspelt option', { promt: 'x' }, "the call's options have no field 'promt'; did you mean 'prompt'?"],
    ['a prompt that is no text', { prompt: 5 }, "the call's prompt must be text (the turn's envelope), got a number"],
    ['a system that is no text', { prompt: 'x', system: ['a'] }, "the call's system must be text, got a list"],
    ['a misspelt setting', { prompt: 'x', settings: { temprature: 0 } }, "the call's settings has no field 'temprature'; did you mean 'temperature'?"],
    ['a setting of the wrong kind', { prompt: 'x', settings: { temperature: 'hot' } }, `the call's settings.temperature must be a finite number, got "hot"`],
    ['a count that is not whole', { prompt: 'x', settings: { maxOutputTokens: 10.5 } }, "the call's settings.maxOutputTokens must be a whole number, got 10.5"],
    ['stop sequences that are not texts', { prompt: 'x', settings: { stopSequences: 'END' } }, "the call's settings.stopSequences must be a list of texts, got a string"],
    ['a system message', { prompt: 'x', messages: [{ role: 'system', content: 'y' }] }, `the call's messages[0].role must be 'user' or 'assistant', got "system" (the system text goes in the option system)`],
    ['a message without text', { prompt: 'x', messages: [{ role: 'user', content: 'a' }, { role: 'assistant' }] }, "the call's messages[1].content must be text, got undefined"],
    ['a signal that is none', { prompt: 'x', signal: 300 }, "the call's signal must be an AbortSignal, got a number"],
    ['an onText that is no function', { prompt: 'x', onText: true }, "the call's onText must be a function (delta) => void, got a boolean"],
    ['a timeout that is none', { prompt: 'x', timeoutMs: -5 }, "the call's timeoutMs must be a number of milliseconds ≥ 0 (0 or Infinity: no timeout), got -5"],
  ])('refuses %s before anything is sent', async (_name, options, message) => {
    const found = await refusal(options);
    expect(found.code).toBe('PROVIDER_CONFIG');
    expect(found.message).toContain(message);
    expect(found.prompts).toBe(0);
  });

  it('never quotes the prompt or a message', async () => {
    const found = await refusal({ prompt: 'x', messages: [{ role: 'tool', content: 'sk-live-secret' }], settings: { stopSequences: [1] } });
    expect(found.message).not.toContain('sk-live-secret');
  });

  it('takes every documented option', async () => {
    const model = createScriptedModel(['fine']);
    const result = await model.generate({
      system: 's', prompt: 'p', messages: [{ role: 'user', content: 'u' }, { role: 'assistant', content: 'a' }],
      settings: { temperature: 0.2, topP: 1, topK: 40, maxOutputTokens: 100, stopSequences: ['END'], seed: 7 },
      signal: new AbortController().signal, onText: () => {}, onEvent: () => {}, timeoutMs: 1000,
    });
    expect(result.text).toBe('fine');
  });
});
