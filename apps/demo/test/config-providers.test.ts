/**
 * `providers:` in askloop.config.yaml: settings of the built-in providers
 * (base URL, timeout, retries, prices), checked at their line, and used by
 * `askloop run` against a real loopback OpenAI-format server: prices give a
 * cost (so an agent's `ceilings.costUsd` is accepted), the timeout and the
 * retries are the file's.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo } from './capture-io.ts';
import { configError } from './config-error.ts';
import { CONFIG_TEMPLATE } from '../src/config/config-template.ts';
import { parseConfig } from '../src/config/index.ts';
import { main } from '../src/main.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-config-providers-'));
const REPLY = ['<<<NSENV:V4:START>>>', '<<<NSENV:V4:USERDATA>>>', '{}', '<<<NSENV:V4:ACTIONS>>>', 'command', '  emit "<<<LOOP:DONE>>> priced"', 'endcommand', '<<<NSENV:V4:END>>>', ''].join('\n');

let server: Server;
let baseURL = '';
let mode: 'answer' | 'stall' | 'unavailable' = 'answer';
let requests = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    requests++;
    request.resume();
    request.on('end', () => {
      if (mode === 'stall') return;
      if (mode === 'unavailable') return void response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"message":"overloaded"}}');
      const chunk = (payload: object) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', ...payload })}\n\n`;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(
        chunk({ choices: [{ index: 0, delta: { content: REPLY }, finish_reason: null }] }) +
          chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) +
          chunk({ choices: [], usage: { prompt_tokens: 1_000_000, completion_tokens: 500_000, total_tokens: 1_500_000 } }) +
          'data: [DONE]\n\n',
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  // The provider reads its key from the process environment when it calls the model (never from the file).
  process.env['OPENAI_API_KEY'] = 'test-key-for-loopback';
});
afterAll(async () => {
  delete process.env['OPENAI_API_KEY'];
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});


describe('providers: in the config file', () => {
  it('loads the settings of the built-in providers', () => {
    const config = parseConfig(
      'providers:\n  openai:\n    baseURL: https://proxy.example.com/v1\n    timeoutMs: 60000\n    retry: { maxRetries: 4, initialDelayMs: 1000 }\n    prices:\n      gpt-4.1-mini: { inputPerMillion: 0.4, outputPerMillion: 1.6 }\n  ollama:\n    timeoutMs: 0\n',
      { file: '/project/askloop.config.yaml' },
    );
    expect(config.providers).toEqual({
      openai: { baseURL: 'https://proxy.example.com/v1', timeoutMs: 60000, retry: { maxRetries: 4, initialDelayMs: 1000 }, prices: { 'gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6 } } },
      ollama: { timeoutMs: 0 },
    });
    expect(parseConfig('plugins: []\n', { file: '/project/askloop.config.yaml' }).providers).toEqual({});
    // A model id may hold a ':' of its own (Ollama's tags): only the provider's name in front is refused.
    expect(parseConfig('providers:\n  ollama:\n    prices:\n      qwen3:8b: { inputPerMillion: 0, outputPerMillion: 0 }\n', { file: '/p/askloop.config.yaml' }).providers.ollama?.prices).toEqual({ 'qwen3:8b': { inputPerMillion: 0, outputPerMillion: 0 } });
  });

  it('loads the commented example askloop init writes, once uncommented', () => {
    const lines = CONFIG_TEMPLATE.split('\n');
    const start = lines.indexOf('# providers:');
    const block = lines.slice(start, lines.indexOf('', start)).map((line) => line.slice(2));
    expect(parseConfig(block.join('\n'), { file: '/project/askloop.config.yaml' }).providers.openai).toMatchObject({ timeoutMs: 60000, retry: { maxRetries: 4 }, prices: { 'gpt-4.1-mini': { inputPerMillion: 0.4 } } });
  });

  it.each([
    ['a provider that is not built in', 'providers:\n  opnai:\n    timeoutMs: 5\n', 2, 3, "providers.opnai: unknown key 'opnai'; did you mean 'openai'? (the keys are openai, anthropic, google, ollama)"],
    ['a setting it does not have', 'providers:\n  openai:\n    timeout: 5\n', 3, 5, "providers.openai.timeout: unknown key 'timeout'; did you mean 'timeoutMs'? (the keys are baseURL, timeoutMs, retry, prices)"],
    ['a retry field it does not have', 'providers:\n  openai:\n    retry: { retries: 3 }\n', 3, 14, "providers.openai.retry.retries: unknown key 'retries'; the keys are maxRetries, initialDelayMs, maxDelayMs, maxRetryAfterMs"],
    ['a negative timeout', 'providers:\n  anthropic:\n    timeoutMs: -1\n', 3, 16, 'providers.anthropic.timeoutMs: expected the timeout of one attempt ≥ 0 milliseconds'],
    ['a timeout in words', 'providers:\n  anthropic:\n    timeoutMs: 2m\n', 3, 16, 'providers.anthropic.timeoutMs: expected a number, got the string "2m"'],
    ['a base URL of another scheme', 'providers:\n  ollama:\n    baseURL: localhost:11434\n', 3, 14, 'providers.ollama.baseURL: expected an http:// or https:// URL, e.g. https://proxy.example.com/v1'],
    ['a price as text', 'providers:\n  google:\n    prices:\n      gemini-2.5-flash: { inputPerMillion: "$0.30", outputPerMillion: 2.5 }\n', 4, 44, 'providers.google.prices.gemini-2.5-flash.inputPerMillion: expected a number, got the string "$0.30"'],
    ['a price without its output half', 'providers:\n  google:\n    prices:\n      m: { inputPerMillion: 1 }\n', 4, 10, 'providers.google.prices.m.outputPerMillion: expected a number, got nothing (the key is missing)'],
    ['a negative price', 'providers:\n  google:\n    prices:\n      m: { inputPerMillion: 1, outputPerMillion: -2 }\n', 4, 50, 'providers.google.prices.m.outputPerMillion: expected a price ≥ 0'],
    ['a price keyed by the agent\'s provider:model', 'providers:\n  openai:\n    prices:\n      openai:gpt-4.1-mini: { inputPerMillion: 1, outputPerMillion: 2 }\n', 4, 28, "providers.openai.prices.openai:gpt-4.1-mini: a model id without the provider: 'gpt-4.1-mini', not 'openai:gpt-4.1-mini'"],
    ['an empty model id', 'providers:\n  openai:\n    prices:\n      "": { inputPerMillion: 1, outputPerMillion: 2 }\n', 4, 11, 'providers.openai.prices.: expected a model id (the key is empty)'],
    ['a fractional retry count', 'providers:\n  openai:\n    retry: { maxRetries: 1.5 }\n', 3, 26, 'providers.openai.retry.maxRetries: expected a whole number, got number 1.5'],
  ])('refuses %s at its line and column', (_, text, line, column, message) => {
    const error = configError(text);
    expect(error).toMatchObject({ code: 'CONFIG_INVALID', file: 'askloop.config.yaml', line, column });
    expect(error.message).toBe(message);
  });

  it('refuses a key written into a provider, before anything else', () => {
    const error = configError('providers:\n  openai:\n    apiKey: sk-abcdefghijklmnopqrstuvwx\n');
    expect(error.code).toBe('CONFIG_SECRET');
    expect(error.message).not.toContain('sk-abcdefghijklmnopqrstuvwx');
  });

  it('askloop run uses them: the base URL and prices (a cost ceiling is accepted and the cost shown), the timeout, the retries', async () => {
    const config = (provider: string) =>
      `providers:\n  openai:\n${provider}\nagents:\n  priced:\n    model: openai:loopback\n    ceilings: { costUsd: 100 }\n`;
    writeFileSync(join(dir, 'askloop.config.yaml'), config(`    baseURL: ${baseURL}\n    prices:\n      loopback: { inputPerMillion: 2, outputPerMillion: 8 }`));
    mode = 'answer';
    const done = captureIo({ cwd: dir });
    expect(await main(['run', 'x', '--agent', 'priced', '--db', 'p.db'], done)).toBe(0);
    expect(done.out).toBe('priced\n');
    const sid = /session ([0-9a-f-]{36})/.exec(done.err)?.[1] ?? '';
    const shown = captureIo({ cwd: dir });
    expect(await main(['show', sid, '--db', 'p.db'], shown)).toBe(0);
    // 1,000,000 tokens in at $2 and 500,000 out at $8 a million.
    expect(shown.out).toContain('$6.0000');

    // Without prices the same agent is refused before a session is stored: its ceiling could never be reached.
    writeFileSync(join(dir, 'askloop.config.yaml'), config(`    baseURL: ${baseURL}`));
    const refused = captureIo({ cwd: dir });
    expect(await main(['run', 'x', '--agent', 'priced', '--db', 'p.db'], refused)).toBe(1);
    expect(refused.err).toMatch(/could never be reached.*providers\.openai\.prices in askloop\.config\.yaml/);

    writeFileSync(join(dir, 'askloop.config.yaml'), config(`    baseURL: ${baseURL}\n    timeoutMs: 300\n    retry: { maxRetries: 1, initialDelayMs: 1 }\n    prices:\n      loopback: { inputPerMillion: 2, outputPerMillion: 8 }`));
    mode = 'stall';
    const stalled = captureIo({ cwd: dir });
    expect(await main(['run', 'x', '--agent', 'priced', '--db', 'p.db', '--json'], stalled)).toBe(3);
    expect(JSON.parse(stalled.out)).toMatchObject({ status: 'HALT', reason: 'ERR_PROVIDER', failure: { code: 'PROVIDER_TIMEOUT', message: expect.stringContaining('300 ms') } });
    mode = 'unavailable';
    requests = 0;
    const unavailable = captureIo({ cwd: dir });
    expect(await main(['run', 'x', '--agent', 'priced', '--db', 'p.db', '--json'], unavailable)).toBe(3);
    expect(JSON.parse(unavailable.out)).toMatchObject({ status: 'HALT', failure: { code: 'PROVIDER_SERVER' } });
    // The file's one retry, not the default two.
    expect(requests).toBe(2);
  });

  it("resume elsewhere without the run's config is refused, naming it (the providers' base URL and prices would be lost)", async () => {
    writeFileSync(join(dir, 'askloop.config.yaml'), `providers:\n  openai:\n    baseURL: ${baseURL}\n    retry: { maxRetries: 0 }\n    prices:\n      loopback: { inputPerMillion: 2, outputPerMillion: 8 }\nagents:\n  priced:\n    model: openai:loopback\n    ceilings: { costUsd: 100 }\n`);
    mode = 'unavailable';
    const halted = captureIo({ cwd: dir });
    expect(await main(['run', 'x', '--agent', 'priced', '--db', 'resume.db', '--json'], halted)).toBe(3);
    const { sid } = JSON.parse(halted.out) as { sid: string };
    mode = 'answer';
    const elsewhere = mkdtempSync(join(tmpdir(), 'askloop-elsewhere-'));
    try {
      const refused = captureIo({ cwd: elsewhere });
      expect(await main(['resume', sid, '--db', join(dir, 'resume.db')], refused)).toBe(2);
      expect(refused.err).toContain(`session ${sid} ran with --config ${join(dir, 'askloop.config.yaml')}, and no config file is in use here`);
      expect(refused.err).toContain(`askloop resume ${sid} --db ${join(dir, 'resume.db')} --config ${join(dir, 'askloop.config.yaml')}`);
      // Nothing was asked of the default endpoint, and the session is as it was.
      const resumed = captureIo({ cwd: elsewhere });
      expect(await main(['resume', sid, '--db', join(dir, 'resume.db'), '--config', join(dir, 'askloop.config.yaml')], resumed), resumed.err).toBe(0);
      expect(resumed.out).toBe('priced\n');
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("an agent file without a model takes the config's models.default; with none anywhere, the error says where one comes from", async () => {
    writeFileSync(join(dir, 'askloop.config.yaml'), `models:\n  default: openai:loopback\nproviders:\n  openai:\n    baseURL: ${baseURL}\n`);
    writeFileSync(join(dir, 'modelless.yaml'), 'name: modelless\ninstructions: Answer.\n');
    mode = 'answer';
    const ran = captureIo({ cwd: dir });
    expect(await main(['run', 'x', '--agent', 'modelless.yaml', '--db', 'modelless.db'], ran), ran.err).toBe(0);
    expect(ran.out).toBe('priced\n');
    const elsewhere = mkdtempSync(join(tmpdir(), 'askloop-modelless-'));
    try {
      const refused = captureIo({ cwd: elsewhere });
      expect(await main(['run', 'x', '--agent', join(dir, 'modelless.yaml'), '--db', 'm.db'], refused)).toBe(1);
      expect(refused.err).toContain("missing required key 'model'; give the file 'model: provider:model', or pass --model PROVIDER:MODEL or --script FILE, or set models.default in askloop.config.yaml");
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
