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
});
