import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandboxPool } from '@askloop/interpreter';
import { createScriptedProvider } from '@askloop/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../create-ask-loop.ts';
import { createMemoryTranscriptStore } from '../store/memory-transcript-store.ts';
import { builtinPlugin } from './builtin-plugin.ts';
import { definePlugin, type AskLoopPlugin } from './plugin.ts';

const pool = createSandboxPool({ workers: 1 });
let root: string;
let server: Server;
let port: number;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'askloop-builtin-'));
  await writeFile(join(root, 'note.txt'), 'from the disk');
  server = createServer((_request, response) => response.end('from loopback'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await pool.close();
  await new Promise((resolve) => server.close(resolve));
  await rm(root, { recursive: true, force: true });
});

const envelope = (...lines: string[]) =>
  ['<<<NSENV:V4:START>>>', '<<<NSENV:V4:USERDATA>>>', '{}', '<<<NSENV:V4:ACTIONS>>>', 'command', ...lines.map((line) => `  ${line}`), 'endcommand', '<<<NSENV:V4:END>>>', ''].join('\n');
const scripted = (replies: string[]): AskLoopPlugin => definePlugin({ name: 'script', specificationVersion: 'v1', providers: { scripted: createScriptedProvider({ models: { m: replies } }) } });
const loopWith = (plugins: AskLoopPlugin[]) => createAskLoop({ plugins, store: createMemoryTranscriptStore(), pool });

describe('builtinPlugin', () => {
  it('contributes the four providers and the safe packs, and fs/http only when configured', () => {
    const plain = builtinPlugin();
    expect(Object.keys(plain.providers ?? {})).toEqual(['openai', 'anthropic', 'google', 'ollama']);
    const packs = plain.toolPacks?.map((pack) => pack.name) ?? [];
    expect(packs).toEqual(expect.arrayContaining(['str', 'memory', 'system', 'policy']));
    expect(packs).not.toContain('fs');
    expect(packs).not.toContain('http');
    const gated = builtinPlugin({ fs: { root }, http: {} }).toolPacks?.map((pack) => pack.name) ?? [];
    expect(gated).toEqual(expect.arrayContaining(['fs', 'http']));
  });

  it('runs a real file read and a real loopback fetch when the agent is granted them', async () => {
    const loop = loopWith([builtinPlugin({ fs: { root }, http: {} }), scripted([envelope('set page = tool.http.Fetch("http://127.0.0.1:' + port + '/")', 'emit "<<<LOOP:DONE>>> " + tool.fs.Read("/note.txt") + " + " + page["body"]')])]);
    const agent = { name: 'reader', model: 'scripted:m', policy: { allow: ['tool.fs.Read', 'tool.http.Fetch'], grants: ['fs:read:/**', `net:read:127.0.0.1:${port}`] } };
    const result = await loop.run({ agent, task: 'read' });
    expect(result).toMatchObject({ status: 'DONE', result: 'from the disk + from loopback' });
    await loop.close();
  });

  it('refuses the gated tools before anything runs when they are not configured', async () => {
    const loop = loopWith([builtinPlugin(), scripted([envelope('emit tool.fs.Read("/note.txt")')])]);
    const result = await loop.run({ agent: { name: 'reader', model: 'scripted:m', policy: { allow: ['tool.fs.Read'], grants: ['fs:read:/**'] } }, task: 'read' });
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_PERMISSIONS' });
    await loop.close();
  });

  it('reads provider keys only when a model is called: no key is a provider halt, not a start-up failure', async () => {
    const saved = process.env['ANTHROPIC_API_KEY'];
    delete process.env['ANTHROPIC_API_KEY'];
    try {
      const loop = loopWith([builtinPlugin()]);
      const result = await loop.run({ agent: { name: 'hosted', model: 'anthropic:claude-sonnet-4-5' }, task: 'x' });
      expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_PROVIDER', turns: 1 });
      await loop.close();
    } finally {
      if (saved !== undefined) process.env['ANTHROPIC_API_KEY'] = saved;
    }
  });

  it('leaves out providers on request, so another plugin can register one under that name', async () => {
    const own = definePlugin({ name: 'mine', specificationVersion: 'v1', providers: { openai: createScriptedProvider({ name: 'openai', models: { local: [envelope('emit "<<<LOOP:DONE>>> mine"')] } }) } });
    expect(() => loopWith([builtinPlugin(), own])).toThrow(/provider 'openai'/);
    const loop = loopWith([builtinPlugin({ providers: ['anthropic', 'google', 'ollama'] }), own]);
    expect(await loop.run({ agent: { name: 'a', model: 'openai:local' }, task: 'x' })).toMatchObject({ status: 'DONE', result: 'mine' });
    await loop.close();
  });

  it('makes a provider from its settings: its base URL, its prices (so costUsd can bound it), its timeout and retries', async () => {
    const reply = envelope('emit "<<<LOOP:DONE>>> priced"');
    let requests = 0;
    let mode: 'answer' | 'stall' | 'unavailable' = 'answer';
    const model = createServer((request, response) => {
      requests++;
      request.resume();
      request.on('end', () => {
        if (mode === 'stall') return; // never answers: the provider's own timeout must end the call
        if (mode === 'unavailable') return void response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"message":"overloaded"}}');
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = (payload: object) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', ...payload })}\n\n`;
        response.end(
          chunk({ choices: [{ index: 0, delta: { content: reply }, finish_reason: null }] }) +
            chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) +
            chunk({ choices: [], usage: { prompt_tokens: 1_000_000, completion_tokens: 500_000, total_tokens: 1_500_000 } }) +
            'data: [DONE]\n\n',
        );
      });
    });
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    const baseURL = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
    const plugin = builtinPlugin({
      providerSettings: { openai: { baseURL, apiKey: 'test-key-not-secret', prices: { m: { inputPerMillion: 2, outputPerMillion: 8 } }, timeoutMs: 1000, retry: { maxRetries: 1, initialDelayMs: 1 } } },
    });
    const loop = loopWith([plugin]);
    try {
      // Without prices this agent is refused before it starts (its cost ceiling could never be reached).
      const agent = { name: 'priced', model: 'openai:m', ceilings: { costUsd: 100 } };
      const done = await loop.run({ agent, task: 'x' });
      expect(done).toMatchObject({ status: 'DONE', result: 'priced' });
      expect(done.usage.costUsd).toBeCloseTo(2 + 4, 9);
      mode = 'stall';
      const timedOut = await loop.run({ agent, task: 'x' });
      expect(timedOut).toMatchObject({ status: 'HALT', reason: 'ERR_PROVIDER', failure: { code: 'PROVIDER_TIMEOUT' } });
      expect(timedOut.failure?.message).toMatch(/1000 ms/);
      mode = 'unavailable';
      requests = 0;
      const unavailable = await loop.run({ agent, task: 'x' });
      expect(unavailable).toMatchObject({ status: 'HALT', reason: 'ERR_PROVIDER', failure: { code: 'PROVIDER_SERVER' } });
      expect(requests).toBe(2); // the first attempt and one retry (the default retries twice)
    } finally {
      await loop.close();
      model.closeAllConnections();
      await new Promise((resolve) => model.close(resolve));
    }
    // The default provider has no prices: the same agent is refused.
    const plain = loopWith([builtinPlugin()]);
    await expect(plain.run({ agent: { name: 'priced', model: 'openai:m', ceilings: { costUsd: 100 } }, task: 'x' })).rejects.toThrow(/could never be reached/);
    await plain.close();
  });

  it('refuses options it would misread (LOOP_CONFIG_INVALID): a misspelt one, settings that are no object, an fs root that is no directory', () => {
    const refused = (options: unknown, message: string) => expect(() => builtinPlugin(options as never)).toThrow(expect.objectContaining({ code: 'LOOP_CONFIG_INVALID', message: expect.stringContaining(message) }));
    // Dropped before: a call meant for a local server went to the provider's own API.
    refused({ providersettings: { openai: { baseURL: 'http://127.0.0.1:1/v1' } } }, "builtinPlugin: providersettings: no such option; did you mean 'providerSettings'?");
    refused({ providerSettings: null }, 'providerSettings must map provider names to their settings, got null');
    refused({ providerSettings: { openai: null } }, 'providerSettings.openai must be the provider\'s settings (an object), got null');
    // A key put where the settings belong is named by its kind, never shown.
    for (const misplaced of [{ providerSettings: 'sk-misplaced-0123456789abcdef' }, { providerSettings: { openai: 'sk-misplaced-0123456789abcdef' } }]) {
      expect(() => builtinPlugin(misplaced as never)).toThrow(expect.objectContaining({ message: expect.stringMatching(/got a string$/) }));
      expect(() => builtinPlugin(misplaced as never)).toThrow(expect.objectContaining({ message: expect.not.stringContaining('sk-misplaced') }));
    }
    refused({ http: 5 }, 'http must be an object of limits ({} for the defaults), got 5');
    refused({ fs: '/tmp' }, 'fs must be { root: DIR }');
    refused({ fs: {} }, 'fs must be { root: DIR }');
    refused({ fs: { root: join(root, 'missing') } }, `fs.root ${JSON.stringify(join(root, 'missing'))} is not an existing directory`);
    refused({ fs: { root, maxReadByte: 10 } }, "fs.maxReadByte: no such option; did you mean 'maxReadBytes'?");
    refused({ http: { timeut: 5 } }, "http.timeut: no such option; did you mean 'timeoutMs'?");
    // Removed when the pack began making its own connections: the refusal names what replaced it.
    refused({ http: { fetch: globalThis.fetch } }, 'builtinPlugin: http.fetch is no longer an option: tool.http.Fetch makes its own connections so that it can check the address each one goes to; to give test host names fixed addresses, pass http.lookup');
    refused({ providers: ['opnai'] }, 'providers: no built-in provider "opnai"');
    refused(null, 'takes { fs?, http?, providers?, providerSettings?, name? }, got null');
    expect(() => builtinPlugin({ fs: { root }, http: { timeoutMs: 5 }, providers: ['openai'] })).not.toThrow();
  });

  it('refuses settings for a provider it does not contribute, or one that does not exist', () => {
    expect(() => builtinPlugin({ providers: ['openai'], providerSettings: { anthropic: { timeoutMs: 5 } } })).toThrow(/providerSettings\.anthropic: 'anthropic' is not among providers \(openai\)/);
    expect(() => builtinPlugin({ providerSettings: { opnai: {} } as never })).toThrow(/no built-in provider 'opnai'/);
    // The factory's own check: a bad timeout is PROVIDER_CONFIG, not a default silently kept.
    expect(() => builtinPlugin({ providerSettings: { ollama: { timeoutMs: -1 } } })).toThrow(/timeoutMs must be a number of milliseconds/);
  });
});
