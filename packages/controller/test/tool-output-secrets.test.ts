/**
 * A key a tool quotes (in its error or its result) never reaches the model's
 * next envelope, a record, an event or the result: the controller gives the
 * tool host the turn's known secrets, its model's keys
 * (`LanguageModel.secrets`) and the loop's (`createAskLoop({ secrets })`).
 * Regression: a plugin tool that threw `'bad key ' + key` sent the key to the
 * model in the next turn's OUTPUT and into every stored record of the turn.
 */
import { inspect } from 'node:util';
import { createSandboxPool } from '@askloop/interpreter';
import { createScriptedProvider, REDACTED, type GenerateOptions, type Provider } from '@askloop/providers';
import { defineTool, defineToolPack } from '@askloop/tools';
import { afterAll, describe, expect, it } from 'vitest';
import type { LoopResult } from '../src/ask-loop.ts';
import { createAskLoop } from '../src/create-ask-loop.ts';
import type { LoopEvent } from '../src/events/loop-event.ts';
import { definePlugin } from '../src/plugin/plugin.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope } from './test-plugin.ts';

const KEY = 'acme-live-7Hq2Lm9Xz4Pw';
const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

const leak = defineToolPack('leak', [
  defineTool({ name: 'tool.leak.Throw', description: 'Throws an error quoting the key.', args: [] }, () => {
    throw new Error(`bad key ${KEY}`);
  }),
  defineTool({ name: 'tool.leak.Get', description: 'Returns the key.', args: [], returns: 'string' }, () => `token ${KEY}`),
  defineTool({ name: 'tool.leak.Put', description: 'Stores a text (a write).', args: [{ name: 'text', type: 'string' }], effect: 'write' }, (args) => {
    written.push(String(args.text));
    return null;
  }),
]);
/** What `tool.leak.Put` stored. */
const written: string[] = [];

const replies = [
  // Turn 1: a result emitted, then a failure whose message becomes the next OUTPUT's SYSTEM_ERROR.
  envelope(['command', '  set got = tool.leak.Get()', '  emit got', '  whisper "self", got', '  call tool.leak.Throw()', 'endcommand'].join('\n')),
  envelope(['command', '  emit "<<<LOOP:DONE>>> stopped"', 'endcommand'].join('\n')),
];

/** A loop over a scripted model whose requests are kept; `modelSecrets` are what the model says it sends. */
async function runLeaky(options: { readonly loopSecrets?: readonly string[]; readonly modelSecrets?: readonly string[]; readonly modelSecretsSource?: () => unknown }) {
  const requests: GenerateOptions[] = [];
  const scripted = createScriptedProvider({ models: { m: replies } });
  const provider: Provider = {
    ...scripted,
    languageModel: (id, settings) => {
      const model = scripted.languageModel(id, settings);
      return {
        provider: model.provider,
        modelId: model.modelId,
        generate: (request) => (requests.push(request), model.generate(request)),
        ...(options.modelSecrets === undefined ? {} : { secrets: () => options.modelSecrets ?? [] }),
        ...(options.modelSecretsSource === undefined ? {} : { secrets: options.modelSecretsSource as () => string[] }),
      };
    },
  };
  const events: LoopEvent[] = [];
  const store = createMemoryTranscriptStore();
  let failure: { readonly code: string | undefined; readonly message: string } | undefined;
  const loop = createAskLoop({
    plugins: [definePlugin({ name: 'leaky', specificationVersion: 'v1', providers: { scripted: provider }, toolPacks: [leak] })],
    store,
    pool,
    onEvent: (event) => events.push(event),
    ...(options.loopSecrets === undefined ? {} : { secrets: () => options.loopSecrets ?? [] }),
  });
  const result = await loop.run({ agent: { name: 'a', model: 'scripted:m', policy: { allow: ['tool.leak.*'] } }, task: 'x' }).catch((error: unknown) => {
    failure = { code: (error as { code?: string }).code, message: (error as Error).message };
    return undefined;
  });
  const sid = result?.sid ?? (await store.listSessions())[0]?.sid;
  const everything = JSON.stringify({ result, failure, events, requests, turns: sid === undefined ? [] : await store.listTurns(sid), sessions: await store.listSessions() });
  await loop.close();
  return { result, failure, everything };
}

/** One run of a loop whose own `secrets` is `secrets`: its result, or what it threw. */
async function runWithLoopSecrets(secrets: () => string[]): Promise<{ readonly result?: LoopResult; readonly error?: unknown }> {
  const scripted = createScriptedProvider({ models: { m: replies } });
  const loop = createAskLoop({ plugins: [definePlugin({ name: 'leaky', specificationVersion: 'v1', providers: { scripted }, toolPacks: [leak] })], store: createMemoryTranscriptStore(), pool, secrets });
  try {
    return await loop.run({ agent: { name: 'a', model: 'scripted:m', policy: { allow: ['tool.leak.*'] } }, task: 'x' }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
  } finally {
    await loop.close();
  }
}

describe("a tool's key kept out of the loop", () => {
  it('by the model\'s own keys (LanguageModel.secrets)', async () => {
    const { result, everything } = await runLeaky({ modelSecrets: [KEY] });
    expect(result).toMatchObject({ status: 'DONE', turns: 2 });
    expect(everything).toContain(`token ${REDACTED}`);
    expect(everything).toContain(`bad key ${REDACTED}`);
    expect(everything).not.toContain(KEY);
  });

  it("fails closed when the model's own secrets() throws (a plugin's LanguageModel; was an untyped error)", async () => {
    const { result, failure, everything } = await runLeaky({
      modelSecretsSource: () => {
        throw new Error('vault unreachable');
      },
    });
    const said = JSON.stringify({ result, failure });
    expect(said).toContain('LOOP_CONFIG_INVALID');
    expect(said).toContain("the model's secrets() (scripted:m) threw");
    expect(everything).not.toContain(KEY);
  });

  it("does not quote what the model's secrets() threw, which may hold a key (JSON.parse quotes its input)", async () => {
    const { result, failure, everything } = await runLeaky({ modelSecretsSource: () => JSON.parse(KEY) as unknown });
    const said = JSON.stringify({ result, failure });
    expect(said).toContain("the model's secrets() (scripted:m) threw a SyntaxError");
    expect(said).toContain('call secrets() yourself');
    expect(everything).not.toContain(KEY.slice(0, 10));
  });

  it("fails closed when the model's secrets() returns one key instead of a list (its letters had hidden nothing)", async () => {
    const { result, failure, everything } = await runLeaky({ modelSecretsSource: () => KEY });
    const said = JSON.stringify({ result, failure });
    expect(said).toContain('LOOP_CONFIG_INVALID');
    expect(said).toContain('must return a list of strings');
    expect(everything).not.toContain(KEY);
  });

  it("by the loop's secrets (createAskLoop({ secrets }))", async () => {
    const { everything } = await runLeaky({ loopSecrets: [KEY] });
    expect(everything).toContain(`bad key ${REDACTED}`);
    expect(everything).not.toContain(KEY);
  });

  it('reaches everything when no one names it as a secret (what the redaction prevents)', async () => {
    const { everything } = await runLeaky({});
    expect(everything).toContain(`bad key ${KEY}`);
  });

  it('refuses a write that would store the mark back where a result had the key hidden (TOOL_ARGUMENT_REDACTED)', async () => {
    const scripted = createScriptedProvider({ models: { m: [envelope(['command', '  set got = tool.leak.Get()', '  call tool.leak.Put(got + " and more")', 'endcommand'].join('\n'))] } });
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [definePlugin({ name: 'leaky', specificationVersion: 'v1', providers: { scripted }, toolPacks: [leak] })], store, pool, secrets: () => [KEY] });
    const result = await loop.run({ agent: { name: 'a', model: 'scripted:m', policy: { allow: ['tool.leak.*'] }, ceilings: { maxTurns: 1 } }, task: 'x' });
    const [turn] = await store.listTurns(result.sid);
    expect(turn?.failure?.message).toContain('TOOL_ARGUMENT_REDACTED');
    expect(written).toEqual([]);
    await loop.close();
  });

  it('fails the turn closed when the loop\'s secrets() throws', async () => {
    const { result, error } = await runWithLoopSecrets(() => {
      throw new Error('vault unreachable');
    });
    const outcome = JSON.stringify({ result, code: (error as { code?: string } | undefined)?.code, message: (error as Error | undefined)?.message });
    expect(outcome).toContain('LOOP_CONFIG_INVALID');
    expect(outcome).toContain("createAskLoop's secrets() threw an Error");
    expect(outcome).not.toContain('vault unreachable');
    expect(outcome).not.toContain(KEY);
  });

  it("does not quote what the loop's secrets() threw, nor keep it as the error's cause", async () => {
    const { error } = await runWithLoopSecrets(() => [JSON.parse(KEY) as string]);
    expect(error).toMatchObject({ code: 'LOOP_CONFIG_INVALID', message: expect.stringContaining("createAskLoop's secrets() threw a SyntaxError") });
    expect(inspect(error, { depth: 5 })).not.toContain(KEY.slice(0, 10));
  });
});
