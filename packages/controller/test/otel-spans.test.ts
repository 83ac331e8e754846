/**
 * OpenTelemetry GenAI spans from real loops: the SDK's in-memory exporter
 * collects what `otelPlugin` made for a scripted session (names, nesting,
 * model and usage attributes, tool calls), a halted one, one paused for
 * approval, and two sessions on a real OpenAI-compatible provider over
 * loopback HTTP with a fake key — which no span may carry, even when the
 * server echoes it back in an error.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSandboxPool } from '@askloop/interpreter';
import { createOpenAICompatibleProvider, estimateTokens } from '@askloop/providers';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import type { LoopEvent } from '../src/events/loop-event.ts';
import { otelPlugin } from '../src/events/otel-plugin.ts';
import { definePlugin } from '../src/plugin/plugin.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import type { TranscriptStore } from '../src/store/transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('askloop-test');
const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());
beforeEach(() => exporter.reset());

const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));
const agent = { name: 'worker', model: 'scripted:m', policy: { allow: ['tool.str.*', 'tool.test.*'] } };
const named = (spans: readonly ReadableSpan[], name: string): ReadableSpan[] => spans.filter((span) => span.name === name);
const only = (spans: readonly ReadableSpan[], name: string): ReadableSpan => {
  const found = named(spans, name);
  expect(found.map((span) => span.name)).toEqual([name]);
  return found[0] as ReadableSpan;
};
const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

describe('otelPlugin', () => {
  it('makes invoke_agent → turn → chat / execute_tool spans with GenAI attributes', async () => {
    const store = createMemoryTranscriptStore();
    const replies = [program('emit tool.str.ToUpper("one")'), program('emit "<<<LOOP:DONE>>> " + tool.str.ToLower("TWO")')];
    const loop = createAskLoop({ plugins: [testPlugin({ m: replies }), otelPlugin({ tracer })], store, pool });
    const result = await loop.run({ agent, task: 'spans' });
    expect(result).toMatchObject({ status: 'DONE', result: 'two', turns: 2 });
    const spans = exporter.getFinishedSpans();
    const records = await store.listTurns(result.sid);

    const root = only(spans, 'invoke_agent worker');
    expect(parentOf(root)).toBeUndefined();
    expect(root.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'worker',
      'gen_ai.conversation.id': result.sid,
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'm',
      'askloop.status': 'DONE',
      'askloop.turns': 2,
      'gen_ai.usage.input_tokens': result.usage.inputTokens,
      'gen_ai.usage.output_tokens': result.usage.outputTokens,
    });
    for (const [index, record] of records.entries()) {
      const turn = only(spans, `turn ${index + 1}`);
      expect(parentOf(turn)).toBe(root.spanContext().spanId);
      expect(turn.attributes).toMatchObject({ 'askloop.turn.index': index + 1, 'askloop.turn.kind': 'normal', 'askloop.decision': record.decision?.kind });
      expect(turn.events.map((event) => event.attributes?.['askloop.phase']).filter(Boolean)).toEqual(['asking', 'prepared', 'executing', 'scanning', 'decided']);
    }
    const chats = named(spans, 'chat m');
    expect(chats).toHaveLength(2);
    for (const [index, chat] of chats.entries()) {
      const reply = records[index]?.reply;
      expect(parentOf(chat)).toBe(only(spans, `turn ${index + 1}`).spanContext().spanId);
      expect(chat.kind).toBe(2); // SpanKind.CLIENT
      expect(chat.attributes).toEqual({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'scripted',
        'gen_ai.request.model': 'm',
        'gen_ai.conversation.id': result.sid,
        'gen_ai.response.model': reply?.model,
        'gen_ai.response.finish_reasons': [reply?.finishReason],
        'gen_ai.usage.input_tokens': reply?.inputTokens,
        'gen_ai.usage.output_tokens': reply?.outputTokens,
      });
    }
    const upper = only(spans, 'execute_tool tool.str.toupper');
    expect(parentOf(upper)).toBe(only(spans, 'turn 1').spanContext().spanId);
    expect(upper.attributes).toEqual({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'tool.str.toupper', 'gen_ai.tool.type': 'function', 'gen_ai.tool.call.id': `${result.sid}/1/0` });
    expect(parentOf(only(spans, 'execute_tool tool.str.tolower'))).toBe(only(spans, 'turn 2').spanContext().spanId);
    // Every span is in one trace.
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
    await loop.close();
  });

  it('marks a halted loop and its last turn as errors with the halt reason', async () => {
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "x"')] }), otelPlugin({ tracer })], store: createMemoryTranscriptStore(), pool });
    const result = await loop.run({ agent: { ...agent, ceilings: { maxTurns: 1 } }, task: 'halt' });
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_MAX_TURNS_EXCEEDED' });
    const spans = exporter.getFinishedSpans();
    for (const span of [only(spans, 'invoke_agent worker'), only(spans, 'turn 1')]) {
      expect(span.status.code).toBe(2); // SpanStatusCode.ERROR
      expect(span.attributes['error.type']).toBe('ERR_MAX_TURNS_EXCEEDED');
    }
    await loop.close();
  });

  it('ends the spans of a call that threw (a store failure) with its code, instead of leaving them open', async () => {
    const memory = createMemoryTranscriptStore();
    const failing: TranscriptStore = {
      ...memory,
      async saveTurn(record, session) {
        if (record.phase === 'decided') throw new Error('disk gone');
        return memory.saveTurn(record, session);
      },
    };
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "one"')] }), otelPlugin({ tracer })], store: failing, pool });
    await expect(loop.run({ agent, task: 'broken store' })).rejects.toMatchObject({ code: 'LOOP_STORE_ERROR' });
    const spans = exporter.getFinishedSpans();
    const invoke = only(spans, 'invoke_agent worker');
    expect(invoke.status.code).toBe(2);
    expect(invoke.attributes['error.type']).toBe('LOOP_STORE_ERROR');
    expect(only(spans, 'turn 1').attributes['error.type']).toBe('LOOP_STORE_ERROR');
    await loop.close();
  });

  it('ends a turn paused for approval with its call, and spans the approved rest of it in the next', async () => {
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "<<<LOOP:DONE>>> " + tool.test.Deploy("prod")')] }), otelPlugin({ tracer })], store: createMemoryTranscriptStore(), pool });
    const paused = await loop.run({ agent, task: 'deploy' });
    expect(paused).toMatchObject({ status: 'PAUSED', reason: 'AWAITING_APPROVAL' });
    expect(named(exporter.getFinishedSpans(), 'turn 1')[0]?.events.map((event) => event.name)).toContain('askloop.approval_required');
    const done = await loop.approve(paused.sid);
    expect(done).toMatchObject({ status: 'DONE', result: 'deployed prod' });
    const spans = exporter.getFinishedSpans();
    const [first, second] = named(spans, 'invoke_agent worker');
    const turns = named(spans, 'turn 1');
    expect(turns.map(parentOf)).toEqual([first?.spanContext().spanId, second?.spanContext().spanId]);
    expect(parentOf(only(spans, 'execute_tool tool.test.deploy'))).toBe(turns[1]?.spanContext().spanId);
    await loop.close();
  });
});

describe('otelPlugin and ask', () => {
  it('nests the child loop of an ask statement under the parent turn that runs it', async () => {
    const models = {
      parent: [program('ask "child", "what is two plus two" into answer', 'emit "<<<LOOP:DONE>>> child said " + answer')],
      child: [program('emit "<<<LOOP:DONE>>> four"')],
    };
    const agents = { parent: { name: 'parent', model: 'scripted:parent', asks: ['child'] }, child: { name: 'child', model: 'scripted:child' } };
    const twoWorkers = createSandboxPool({ workers: 2 });
    const loop = createAskLoop({ plugins: [testPlugin(models, new Map(), agents), otelPlugin({ tracer })], store: createMemoryTranscriptStore(), pool: twoWorkers });
    expect(await loop.run({ agent: 'parent', task: 'delegate' })).toMatchObject({ status: 'DONE', result: 'child said four' });
    await loop.close();
    await twoWorkers.close();
    const spans = exporter.getFinishedSpans();
    const parentTurn = named(spans, 'turn 1').find((span) => span.attributes['gen_ai.conversation.id'] !== only(spans, 'invoke_agent child').attributes['gen_ai.conversation.id']);
    expect(parentOf(only(spans, 'invoke_agent child'))).toBe(parentTurn?.spanContext().spanId);
    expect(parentOf(parentTurn as ReadableSpan)).toBe(only(spans, 'invoke_agent parent').spanContext().spanId);
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
  });
});

describe('otelPlugin with a real HTTP provider and a key', () => {
  const KEY = 'sk-test-otel-0123456789SECRET';
  let server: Server;
  let baseURL = '';
  const reply = program('emit "<<<LOOP:DONE>>> " + tool.str.ToUpper("over http")');
  const chunk = (body: object) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'served-model', ...body })}\n\n`;

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (part: Buffer) => (body += part.toString()));
      request.on('end', () => {
        if ((JSON.parse(body) as { model: string }).model === 'refused') {
          // A server that echoes the key in its error: the provider must redact it before anyone sees it.
          response.writeHead(401, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: { message: `invalid key ${request.headers.authorization ?? ''}`, type: 'invalid_request_error' } }));
          return;
        }
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        if ((JSON.parse(body) as { model: string }).model === 'cut') {
          // Half a reply, then the connection drops: no finish, no usage.
          response.write(chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: reply.slice(0, 60) }, finish_reason: null }] }), () => response.destroy());
          return;
        }
        response.write(chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: reply }, finish_reason: null }] }));
        response.write(chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
        response.write(chunk({ choices: [], usage: { prompt_tokens: 321, completion_tokens: 45, total_tokens: 366 } }));
        response.end('data: [DONE]\n\n');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("gives a chat span cut short after it streamed the call's estimated usage, and fails it with the turn's code", async () => {
    const local = createOpenAICompatibleProvider({ name: 'local', baseURL, apiKey: KEY, retry: { maxRetries: 0 } });
    const events: LoopEvent[] = [];
    const loop = createAskLoop({ plugins: [definePlugin({ name: 'local', specificationVersion: 'v1', providers: { local } }), otelPlugin({ tracer })], store: createMemoryTranscriptStore(), pool, onEvent: (event) => events.push(event) });
    const cut = await loop.run({ agent: { name: 'http', model: 'local:cut' }, task: 'x' });
    await loop.close();
    expect(cut).toMatchObject({ status: 'HALT', reason: 'ERR_PROVIDER' });
    const failed = events.find((event) => event.type === 'call-failed');
    expect(failed).toMatchObject({ code: cut.failure?.code, outputTokens: estimateTokens(reply.slice(0, 60)) });
    expect(cut.usage).toMatchObject({ inputTokens: (failed as { inputTokens: number }).inputTokens, outputTokens: estimateTokens(reply.slice(0, 60)) });
    const chat = exporter.getFinishedSpans().find((span) => span.name === 'chat cut');
    expect(chat?.attributes).toMatchObject({ 'gen_ai.usage.input_tokens': cut.usage.inputTokens, 'gen_ai.usage.output_tokens': cut.usage.outputTokens, 'error.type': cut.failure?.code });
  });

  it('never puts the key in a span attribute, event or status', async () => {
    const local = createOpenAICompatibleProvider({ name: 'local', baseURL, apiKey: KEY, retry: { maxRetries: 0 } });
    const plugins = [definePlugin({ name: 'local', specificationVersion: 'v1', providers: { local }, toolPacks: testPlugin({}).toolPacks ?? [] }), otelPlugin({ tracer })];
    const loop = createAskLoop({ plugins, store: createMemoryTranscriptStore(), pool });
    const ok = await loop.run({ agent: { name: 'http', model: 'local:asked-model', policy: { allow: ['tool.str.*'] } }, task: 'x' });
    expect(ok).toMatchObject({ status: 'DONE', result: 'OVER HTTP' });
    const refused = await loop.run({ agent: { name: 'http', model: 'local:refused' }, task: 'x' });
    expect(refused).toMatchObject({ status: 'HALT', reason: 'ERR_PROVIDER' });
    await loop.close();

    const spans = exporter.getFinishedSpans();
    const chats = spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'chat');
    expect(chats.map((span) => span.name)).toEqual(['chat asked-model', 'chat refused']);
    expect(chats[0]?.attributes).toMatchObject({ 'gen_ai.provider.name': 'local', 'gen_ai.request.model': 'asked-model', 'gen_ai.usage.input_tokens': expect.any(Number) });
    expect(chats[1]?.attributes['error.type']).toBe('PROVIDER_AUTH');
    expect(chats[1]?.status.code).toBe(2);
    const everything = JSON.stringify(spans.map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status, resource: span.resource.attributes })));
    expect(everything).toContain('PROVIDER_AUTH');
    expect(everything).not.toContain('0123456789SECRET');
  });
});
