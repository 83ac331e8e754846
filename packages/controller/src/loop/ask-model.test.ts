import { estimateTokens, ProviderError, type GenerateOptions, type LanguageModel } from '@askloop/providers';
import { describe, expect, it } from 'vitest';
import { ABORT_SETTLE_MS, askModel, END_GRACE_CHARACTERS, WALL_CLOCK_SPENT } from './ask-model.ts';

const END = '<<<NSENV:V4:END>>>';
const reply = ['<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{}\n', '<<<NSENV:V4:ACTIONS>>>\ncommand\n  emit "x"\nendcommand\n', `${END}\n`, 'tokens we do not want to pay for', ' and more'];

/** A model whose whole reply is already received: it hands every chunk over at once, then its real usage. */
function bufferedModel(chunks: readonly string[], fail?: Error): LanguageModel {
  return {
    provider: 'fake',
    modelId: 'buffered',
    async generate(options: GenerateOptions) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      for (const chunk of chunks) {
        // As the SDKs' stream iterators do: one microtask per chunk already buffered.
        await Promise.resolve();
        if (options.signal?.aborted) throw new ProviderError({ code: 'PROVIDER_ABORTED', message: 'aborted', provider: 'fake' });
        options.onText?.(chunk);
      }
      if (fail !== undefined) throw fail;
      return { text: chunks.join(''), usage: { inputTokens: 7, outputTokens: 42 }, finishReason: 'stop', latencyMs: 1, attempts: 1, raw: null, provider: 'fake', model: 'buffered', warnings: [] };
    },
  };
}

/** A model that streams chunk by chunk and stops when aborted, as the HTTP providers do. */
function streamingModel(chunks: readonly string[], gapMs = 1): LanguageModel & { delivered: () => number } {
  let delivered = 0;
  return {
    provider: 'fake',
    modelId: 'stream',
    delivered: () => delivered,
    async generate(options: GenerateOptions) {
      for (const chunk of chunks) {
        await new Promise((resolve) => setTimeout(resolve, gapMs));
        if (options.signal?.aborted) throw new ProviderError({ code: 'PROVIDER_ABORTED', message: 'aborted', provider: 'fake' });
        delivered += 1;
        options.onText?.(chunk);
      }
      return { text: chunks.join(''), usage: { inputTokens: 1, outputTokens: 1 }, finishReason: 'stop', latencyMs: 1, attempts: 1, raw: null, provider: 'fake', model: 'stream', warnings: [] };
    },
  };
}

/** A hand-built model that ignores its signal: it streams `chunks`, then never settles. */
function hangingModel(chunks: readonly string[] = []): LanguageModel {
  return {
    provider: 'hand',
    modelId: 'hang',
    generate(options: GenerateOptions) {
      for (const chunk of chunks) options.onText?.(chunk);
      return new Promise(() => undefined);
    },
  };
}

describe('askModel with a hand-built model that answers junk usage', () => {
  it.each([[-5], [1.5], [1e308], [Number.NaN]])('fails a reply whose inputTokens is %s as PROVIDER_BAD_RESPONSE', async (inputTokens) => {
    const model: LanguageModel = { provider: 'hand', modelId: 'junk', generate: async () => ({ text: reply.join(''), usage: { inputTokens, outputTokens: 1 }, finishReason: 'stop', latencyMs: 1, attempts: 1, raw: null, provider: 'hand', model: 'junk', warnings: [] }) };
    expect(await askModel({ model, system: 's', prompt: 'p', settings: {} })).toMatchObject({ failure: { code: 'PROVIDER_BAD_RESPONSE', message: expect.stringContaining('not a whole number of tokens') } });
  });
});

describe('askModel with a model that ignores its signal', () => {
  it("stops waiting ABORT_SETTLE_MS after the caller's abort: the call fails cancelled, not hangs", async () => {
    const caller = new AbortController();
    const started = performance.now();
    setTimeout(() => caller.abort(), 20);
    const outcome = await askModel({ model: hangingModel(), system: 's', prompt: 'p', settings: {}, signal: caller.signal });
    expect(outcome).toMatchObject({ failure: { code: 'PROVIDER_ABORTED', kind: 'cancelled', message: expect.stringContaining('did not settle within') } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(ABORT_SETTLE_MS);
  });

  it('fails the call at the wall-clock ceiling (then the settle time) as the ceiling spent', async () => {
    const outcome = await askModel({ model: hangingModel(), system: 's', prompt: 'p', settings: {}, wallClock: { ceilingMs: 500, leftMs: 30 } });
    expect(outcome).toMatchObject({ failure: { code: WALL_CLOCK_SPENT, kind: 'timeout' } });
  });

  it('keeps a whole envelope it streamed before hanging, with estimated usage', async () => {
    const outcome = await askModel({ model: hangingModel(reply.slice(0, 3)), system: 's', prompt: 'p', settings: {}, endGraceMs: 10 });
    expect('reply' in outcome && outcome.reply).toMatchObject({ text: reply.slice(0, 3).join(''), finishReason: 'stopped-at-end' });
  });
});

describe('askModel', () => {
  it('lets a stream that ends soon after END end by itself: no abort, real usage, nothing after END kept', async () => {
    const model = streamingModel(reply);
    // A grace no pause of this process can outlast: only a stream stopped at END (the bug) is cut.
    const outcome = await askModel({ model, system: 'rules', prompt: 'envelope', settings: {}, endGraceMs: 60_000 });
    expect(model.delivered()).toBe(reply.length);
    expect('reply' in outcome && outcome.reply).toMatchObject({ text: reply.slice(0, 3).join(''), finishReason: 'stop', inputTokens: 1, outputTokens: 1 });
  });

  it('aborts a call still going endGraceMs after END, and keeps the text with estimated usage', async () => {
    // Slow and short after END (40 characters): only the grace, not the character bound, can stop it.
    const model = streamingModel([...reply.slice(0, 3), ...Array.from({ length: 20 }, () => ' m')], 10);
    const outcome = await askModel({ model, system: 'rules', prompt: 'envelope', settings: {}, endGraceMs: 25 });
    expect(model.delivered()).toBeLessThan(3 + 6);
    expect('reply' in outcome && outcome.reply).toMatchObject({ text: reply.slice(0, 3).join(''), finishReason: 'stopped-at-end' });
    expect('reply' in outcome && outcome.reply.outputTokens).toBeGreaterThan(0);
  });

  it('keeps the complete envelope as the reply when the caller aborts during the grace after END', async () => {
    const controller = new AbortController();
    const model = streamingModel([...reply.slice(0, 3), ...Array.from({ length: 20 }, () => ' m')], 10);
    const outcome = await askModel({
      model,
      system: 'rules',
      prompt: 'envelope',
      settings: {},
      signal: controller.signal,
      onText: (delta) => {
        if (delta.includes(END)) setTimeout(() => controller.abort(), 5);
      },
    });
    expect('reply' in outcome && outcome.reply).toMatchObject({ text: reply.slice(0, 3).join(''), finishReason: 'stopped-at-end' });
  });

  it(`aborts at once a call that streams more than ${END_GRACE_CHARACTERS} characters after END, whatever the grace`, async () => {
    const model = streamingModel([...reply.slice(0, 3), 'x'.repeat(END_GRACE_CHARACTERS + 1), 'never read', 'never read']);
    const outcome = await askModel({ model, system: 'rules', prompt: 'envelope', settings: {}, endGraceMs: 60_000 });
    expect(model.delivered()).toBe(4);
    expect('reply' in outcome && outcome.reply).toMatchObject({ text: reply.slice(0, 3).join(''), finishReason: 'stopped-at-end' });
  });

  it('keeps nothing after the END line even when it arrives in the same piece, and counts it towards the bound', async () => {
    const deltas: string[] = [];
    // The END line and the start of the model's chatter in one piece, as a provider may deliver them.
    const joined = streamingModel([...reply.slice(0, 2), `${END}\nSure! Anything else?`, ' and more']);
    const outcome = await askModel({ model: joined, system: 'rules', prompt: 'envelope', settings: {}, onText: (delta) => deltas.push(delta) });
    expect('reply' in outcome && outcome.reply.text).toBe(reply.slice(0, 3).join(''));
    expect(deltas.join('')).toBe(reply.slice(0, 3).join(''));
    // More than the bound in that same piece: the call is stopped at once, whatever the grace.
    const talkative = streamingModel([...reply.slice(0, 2), `${END}\n${'x'.repeat(END_GRACE_CHARACTERS + 1)}`, 'never read', 'never read']);
    const stopped = await askModel({ model: talkative, system: 'rules', prompt: 'envelope', settings: {}, endGraceMs: 60_000 });
    expect(talkative.delivered()).toBe(3);
    expect('reply' in stopped && stopped.reply).toMatchObject({ text: reply.slice(0, 3).join(''), finishReason: 'stopped-at-end' });
  });

  it('keeps a DONE marker written after END out of the reply, and records that it was there', async () => {
    const ask = async (chunks: readonly string[]) => {
      const outcome = await askModel({ model: streamingModel(chunks, 0), system: 'rules', prompt: 'envelope', settings: {}, endGraceMs: 60_000 });
      return 'reply' in outcome ? outcome.reply : undefined;
    };
    const envelopeOnly = reply.slice(0, 3).join('');
    // In the piece that holds END, split across later pieces, or after chatter: seen, never kept.
    for (const after of [[`${END}\nDone! <<<LOOP:DONE>>> 4`], [`${END}\nDone! <<<LOO`, 'P:DONE>>> 4'], [`${END}\n`, 'Done! ', '<<<LOOP:DONE', '>>> 4']]) {
      expect(await ask([...reply.slice(0, 2), ...after])).toMatchObject({ text: envelopeOnly, doneMarkerAfterEnd: true });
    }
    // Chatter without it, and a marker past the characters a call may stream after END, leave no trace.
    expect(await ask(reply)).not.toHaveProperty('doneMarkerAfterEnd');
    expect(await ask([...reply.slice(0, 3), 'x'.repeat(END_GRACE_CHARACTERS), '<<<LOOP:DONE>>> 4'])).not.toHaveProperty('doneMarkerAfterEnd');
    // Nor does a marker in the envelope (USERDATA the model echoed): only what follows END is watched.
    const echoed = ['<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{"subject":"<<<LOOP:DONE>>> x"}\n', ...reply.slice(1, 3)];
    expect(await ask(echoed)).not.toHaveProperty('doneMarkerAfterEnd');
  });

  it('lets a reply whose end has already arrived finish: no abort, real usage, nothing after END kept', async () => {
    const outcome = await askModel({ model: bufferedModel(reply), system: 'rules', prompt: 'envelope', settings: {} });
    expect('reply' in outcome && outcome.reply).toMatchObject({ text: reply.slice(0, 3).join(''), finishReason: 'stop', inputTokens: 7, outputTokens: 42 });
  });

  it('keeps a complete envelope when the stream fails after END (cut short before its finish chunk)', async () => {
    const cut = new ProviderError({ code: 'PROVIDER_BAD_RESPONSE', message: 'the stream ended before any finish_reason', provider: 'fake' });
    const outcome = await askModel({ model: bufferedModel(reply.slice(0, 3), cut), system: 'rules', prompt: 'envelope', settings: {} });
    expect('reply' in outcome && outcome.reply).toMatchObject({ text: reply.slice(0, 3).join(''), finishReason: 'stopped-at-end' });
  });

  it('reports a non-provider error after END (a bug in a provider) as the failure it is', async () => {
    const outcome = await askModel({ model: bufferedModel(reply.slice(0, 3), new TypeError('a bug')), system: '', prompt: '', settings: {} });
    expect('failure' in outcome && outcome.failure).toMatchObject({ kind: 'provider', code: 'PROVIDER_ERROR', message: 'the model fake:buffered failed: its generate() threw a TypeError, not a ProviderError: a bug' });
  });

  it('names the model and the kind of what a hand-written generate() rejected with (it said only "nope")', async () => {
    const model: LanguageModel = { provider: 'zeta', modelId: 'z1', generate: () => Promise.reject('nope') };
    const outcome = await askModel({ model, system: '', prompt: '', settings: {} });
    expect('failure' in outcome && outcome.failure).toEqual({ kind: 'provider', code: 'PROVIDER_ERROR', message: 'the model zeta:z1 failed: its generate() threw a string, not a ProviderError: nope' });
  });

  it('still fails a stream cut short before END', async () => {
    const cut = new ProviderError({ code: 'PROVIDER_BAD_RESPONSE', message: 'the stream ended before any finish_reason', provider: 'fake' });
    const outcome = await askModel({ model: bufferedModel(reply.slice(0, 2), cut), system: '', prompt: '', settings: {} });
    expect('failure' in outcome && outcome.failure).toMatchObject({ kind: 'provider', code: 'PROVIDER_BAD_RESPONSE' });
  });

  it('counts what a stream cut short before END streamed: estimated tokens, priced by the model', async () => {
    const cut = new ProviderError({ code: 'PROVIDER_BAD_RESPONSE', message: 'the stream ended before any finish_reason', provider: 'fake' });
    const priced = { ...bufferedModel(reply.slice(0, 2), cut), prices: { inputPerMillion: 1_000_000, outputPerMillion: 2_000_000 } };
    const system = 'the rules of the game, forty characters!';
    const outcome = await askModel({ model: priced, system, prompt: 'the envelope', settings: {} });
    const streamed = estimateTokens(reply.slice(0, 2).join(''));
    const input = estimateTokens(system) + estimateTokens('the envelope');
    expect(streamed).toBeGreaterThan(10);
    // $1 an input token and $2 an output token.
    expect('failure' in outcome && outcome.spent).toEqual({ inputTokens: input, outputTokens: streamed, costUsd: input + 2 * streamed });
  });

  it('counts what a call streamed before it resolved something that is not a reply', async () => {
    const junk: LanguageModel = {
      provider: 'hand',
      modelId: 'junk',
      async generate(options: GenerateOptions) {
        options.onText?.('Some text that streamed first');
        return { text: 'x', usage: null, finishReason: 'stop', latencyMs: 1, attempts: 1, raw: null, provider: 'hand', model: 'junk', warnings: [] } as never;
      },
    };
    const outcome = await askModel({ model: junk, system: '', prompt: '', settings: {} });
    expect(outcome).toMatchObject({ failure: { code: 'PROVIDER_BAD_RESPONSE' }, spent: { outputTokens: estimateTokens('Some text that streamed first') } });
  });

  it('counts nothing for a call that failed before it streamed any text', async () => {
    const refused = new ProviderError({ code: 'PROVIDER_RATE_LIMIT', message: 'slow down', provider: 'fake' });
    const outcome = await askModel({ model: bufferedModel([], refused), system: 'rules', prompt: 'envelope', settings: {} });
    expect(outcome).toEqual({ failure: expect.objectContaining({ code: 'PROVIDER_RATE_LIMIT' }) });
  });

  it("counts a cancelled call's streamed text, and the real usage of a reply the wall clock came too late for", async () => {
    const controller = new AbortController();
    const model = streamingModel(reply, 30);
    // Cancelled once the first piece is in (not by a timer, which a paused process could fire before it).
    const cancelled = await askModel({ model, system: '', prompt: '', settings: {}, signal: controller.signal, onText: () => controller.abort() });
    expect(cancelled).toMatchObject({ failure: { kind: 'cancelled' }, spent: { inputTokens: 0, outputTokens: estimateTokens(reply[0]!), costUsd: 0 } });
    // Ignores its abort and answers after the ceiling, with its usage: the call is paid for by that usage.
    const late: LanguageModel = {
      provider: 'hand',
      modelId: 'late',
      async generate(options: GenerateOptions) {
        options.onText?.('Thinking');
        await new Promise((resolve) => setTimeout(resolve, 60));
        return { text: 'Thinking about it', usage: { inputTokens: 11, outputTokens: 13 }, costUsd: 0.25, finishReason: 'stop', latencyMs: 60, attempts: 1, raw: null, provider: 'hand', model: 'late', warnings: [] };
      },
    };
    const outcome = await askModel({ model: late, system: '', prompt: '', settings: {}, wallClock: { ceilingMs: 100, leftMs: 20 } });
    expect(outcome).toMatchObject({ failure: { code: WALL_CLOCK_SPENT }, spent: { inputTokens: 11, outputTokens: 13, costUsd: 0.25 } });
  });

  it('reads a reply without an envelope to its end (the tolerant extraction decides later)', async () => {
    const outcome = await askModel({ model: streamingModel(['Sure! ', 'Here is my plan.']), system: '', prompt: '', settings: {} });
    expect('reply' in outcome && outcome.reply.text).toBe('Sure! Here is my plan.');
  });

  it('reports a caller abort as cancelled, not as a reply', async () => {
    const controller = new AbortController();
    controller.abort();
    const outcome = await askModel({ model: streamingModel(reply), system: '', prompt: '', settings: {}, signal: controller.signal });
    expect('failure' in outcome && outcome.failure).toMatchObject({ kind: 'cancelled', code: 'PROVIDER_ABORTED' });
  });
});
