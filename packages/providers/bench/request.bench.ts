/**
 * `pnpm bench`: what one request through the OpenAI-compatible provider
 * costs beyond a bare `fetch` of the same request, against a loopback server
 * in its own process (`held-model-server.ts`, the recorded wire formats):
 *
 * - latency of one request at a time, plain and streamed, as a ratio of the
 *   bare `fetch` (the floor: the same body, the same reply, read the same way);
 * - heap and off-heap memory per request in flight: N requests held by the
 *   server, heap after GC divided by N.
 *
 * Each is measured for the provider as it is (one SDK client per provider)
 * and for the way it was before (a new SDK client for every request, rebuilt
 * here from the same wire code), in the same run.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createOpenAICompatibleProvider, createLanguageModel, nodeHttpFetch, type LanguageModel } from '@askloop/providers';
import { formatMs, formatRatio, QUICK, report, sampleCount, stats } from '../../../scripts/bench-harness.ts';
import { loadOpenAI } from '../src/openai/load-openai.ts';
import { openAIChatAttempt } from '../src/openai/openai-chat-attempt.ts';
import { SDK_TIMEOUT_MS } from '../src/call/sdk-timeout.ts';
import { settledMemory } from './settled-memory.ts';

// Checked at the start, not only when memory is first measured, after the timed runs.
if ((globalThis as { gc?: unknown }).gc === undefined) throw new Error('run with --expose-gc (the package bench script does)');

const KEY = 'sk-bench-0123456789abcdef';
const SYSTEM = 'You write NeuroScript programs. Answer with one envelope.';
const PROMPT = '<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{"subject":"bench"}\n<<<NSENV:V4:END>>>';

const server: ChildProcess = fork(new URL('./held-model-server.ts', import.meta.url), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const [{ port }] = (await once(server, 'message')) as [{ port: number }];
const baseURL = `http://127.0.0.1:${port}/v1`;

/** The provider as it is: one SDK client for all its requests, over its default transport (`nodeHttpFetch`). */
const shared = createOpenAICompatibleProvider({ name: 'bench', baseURL, apiKey: KEY }).languageModel('bench-model');
/** The same provider over Node's own `fetch` (undici), its transport before `nodeHttpFetch`. */
const overNodeFetch = createOpenAICompatibleProvider({ name: 'bench', baseURL, apiKey: KEY, fetch: globalThis.fetch }).languageModel('bench-model');

/** The provider as it was earlier still: the same wire code with a new SDK client built for every request. */
const perRequest: LanguageModel = createLanguageModel({
  provider: 'bench',
  modelId: 'bench-model',
  secrets: () => [KEY],
  attempt: openAIChatAttempt({
    modelId: 'bench-model',
    maxTokensField: 'max_tokens',
    includeStreamUsage: true,
    client: async (request) =>
      new (await loadOpenAI())({ apiKey: KEY, baseURL, organization: null, project: null, fetch: request.fetch, maxRetries: 0, timeout: SDK_TIMEOUT_MS }),
  }),
});

/** The floor: the body the provider sends, posted with a bare fetch and read whole. */
async function bareFetch(stream: boolean, fetch = globalThis.fetch): Promise<number> {
  const body: Record<string, unknown> = { model: 'bench-model', messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: PROMPT }] };
  if (stream) Object.assign(body, { stream: true, stream_options: { include_usage: true } });
  const response = await fetch(`${baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    body: JSON.stringify(body),
  });
  return stream ? (await response.text()).length : ((await response.json()) as { choices: unknown[] }).choices.length;
}

/**
 * Our call layer alone (retries, per-attempt timeout and signal, fetch tap, redaction, events) around the
 * bare request sent through the attempt's fetch (the default transport, `nodeHttpFetch`), without an SDK: where
 * the provider's cost over the floor splits between this layer and the SDK.
 */
const wrapperOnly = (stream: boolean): LanguageModel =>
  createLanguageModel({
    provider: 'bench',
    modelId: 'bench-model',
    secrets: () => [KEY],
    attempt: async (request) => ({ text: String(await bareFetch(stream, request.fetch)), usage: { inputTokens: 0, outputTokens: 0 }, finishReason: 'stop', raw: {} }),
  });

let sink = 0;
const viaModel = (model: LanguageModel, stream: boolean) => async (): Promise<void> => {
  const result = await model.generate(stream ? { system: SYSTEM, prompt: PROMPT, onText: (delta) => (sink += delta.length) } : { system: SYSTEM, prompt: PROMPT });
  sink += result.text.length;
};

const variants = (stream: boolean) => [
  { name: `bare fetch${stream ? ', body read as text' : ', body parsed'}`, run: () => bareFetch(stream).then((n) => void (sink += n)) },
  { name: 'bare nodeHttpFetch (the default transport)', run: () => bareFetch(stream, nodeHttpFetch).then((n) => void (sink += n)) },
  { name: 'call layer around the bare nodeHttpFetch, no SDK', run: viaModel(wrapperOnly(stream), false) },
  { name: "provider, one shared SDK client, over Node's fetch (before)", run: viaModel(overNodeFetch, stream) },
  { name: 'provider, one shared SDK client, over nodeHttpFetch (now)', run: viaModel(shared, stream) },
  { name: 'provider, SDK client per request (earlier)', run: viaModel(perRequest, stream) },
];

// Latency, one request at a time. The variants take turns in short batches, so that a change of load on
// the shared machine falls on all of them alike; the first batch of each is a warm-up (JIT, sockets).
const rounds = sampleCount(8, 2);
const batch = sampleCount(150, 5);
for (const stream of [false, true]) {
  const tasks = variants(stream);
  const times = tasks.map((): number[] => []);
  const cpu = tasks.map(() => 0);
  for (let round = 0; round <= rounds; round++) {
    for (const [index, task] of tasks.entries()) {
      const started = process.cpuUsage();
      for (let run = 0; run < batch; run++) {
        const before = performance.now();
        await task.run();
        if (round > 0) times[index]!.push(performance.now() - before);
      }
      const used = process.cpuUsage(started);
      if (round > 0) cpu[index]! += used.user + used.system;
    }
  }
  // CPU of this process only (the server runs in its own): less swayed by other processes than wall time.
  const cpuMs = cpu.map((micros) => micros / 1000 / (rounds * batch));
  const results = tasks.map((task, index) => ({ name: task.name, ...stats(times[index]!) }));
  const floor = results[0]!;
  report({
    id: `providers.request.latency-${stream ? 'stream' : 'plain'}`,
    title: `One ${stream ? 'streamed' : 'plain'} Chat Completions request on loopback, one at a time`,
    peer: floor.name,
    columns: ['task', 'median', 'p10 – p90', 'over the floor', 'vs floor', 'CPU per request', 'CPU vs floor', 'samples'],
    rows: results.map((result, index) => [
      result.name,
      formatMs(result.median),
      `${formatMs(result.p10)} – ${formatMs(result.p90)}`,
      formatMs(result.median - floor.median),
      formatRatio(result.median / floor.median),
      formatMs(cpuMs[index]!),
      formatRatio(cpuMs[index]! / cpuMs[0]!),
      String(result.samples),
    ]),
    data: results.map((result, index) => ({
      name: result.name,
      samples: result.samples,
      medianMs: result.median,
      p10Ms: result.p10,
      p90Ms: result.p90,
      overMs: result.median - floor.median,
      ratio: result.median / floor.median,
      cpuMs: cpuMs[index],
      cpuRatio: cpuMs[index]! / cpuMs[0]!,
    })),
    note: 'The server answers at once; the time over the floor is what the provider adds per request (SDK, retries, redaction, events). The floor is Node\'s own `fetch`; the providers\' default transport, `nodeHttpFetch`, is measured beside it, bare and under the provider. CPU per request is this process\'s user + system time (garbage collection included) divided by the requests.',
  });
}

// CPU by the number of SSE events a streamed reply arrives in: the same 1 KiB reply in 4 events (the concurrency
// benchmark's loopback server sends 256-byte pieces) up to 256 (about one per token, as a model streams it).
const EVENT_COUNTS = [4, 32, 256];
const eventRounds = sampleCount(6, 1);
const eventBatch = sampleCount(100, 5);
const streamedVia = (count: number) => ({
  floor: async () => {
    const response = await fetch(`http://127.0.0.1:${port}/events-${count}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ model: 'bench-model', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: PROMPT }] }),
    });
    sink += (await response.text()).length;
  },
  provider: viaModel(createOpenAICompatibleProvider({ name: 'bench', baseURL: `http://127.0.0.1:${port}/events-${count}/v1`, apiKey: KEY }).languageModel('bench-model'), true),
});
const eventTasks = EVENT_COUNTS.map((count) => ({ count, ...streamedVia(count) }));
const eventCpu = eventTasks.map(() => ({ floor: 0, provider: 0 }));
for (let round = 0; round <= eventRounds; round++) {
  for (const [index, task] of eventTasks.entries()) {
    for (const side of ['floor', 'provider'] as const) {
      const started = process.cpuUsage();
      for (let run = 0; run < eventBatch; run++) await task[side]();
      const used = process.cpuUsage(started);
      // The first round is a warm-up (JIT, sockets).
      if (round > 0) eventCpu[index]![side] += (used.user + used.system) / 1000 / (eventRounds * eventBatch);
    }
  }
}
const perEvent = (side: 'floor' | 'provider') => (eventCpu.at(-1)![side] - eventCpu[0]![side]) / (EVENT_COUNTS.at(-1)! - EVENT_COUNTS[0]!);
report({
  id: 'providers.request.stream-events',
  title: 'CPU of one streamed 1 KiB reply by the number of SSE events it arrives in, one request at a time',
  peer: 'bare fetch of the same stream, body read as text',
  columns: ['content events', 'bare fetch, CPU per request', 'provider, CPU per request', 'provider vs floor'],
  rows: eventTasks.map((task, index) => [
    String(task.count),
    formatMs(eventCpu[index]!.floor),
    formatMs(eventCpu[index]!.provider),
    formatRatio(eventCpu[index]!.provider / eventCpu[index]!.floor),
  ]),
  data: eventTasks.map((task, index) => ({ events: task.count, floorCpuMs: eventCpu[index]!.floor, providerCpuMs: eventCpu[index]!.provider, requests: eventRounds * eventBatch })),
  note: `The same reply (1 KiB of text, then the finish, the usage and [DONE]) split into 4, 32 or 256 content events of the OpenAI chunk shape; the server answers at once. Each event costs the provider about ${formatMs(perEvent('provider'))} of CPU and the bare fetch about ${formatMs(perEvent('floor'))} (the slope from 4 to 256 events): the provider parses each event's JSON (readServerSentEvents, then JSON.parse), redacts and hands each delta on (the loop then feeds it to its envelope parser, not counted here). A model that streams token by token (about 256 events for 1 KiB) costs the host that much more per turn than the 4 events of the concurrency benchmark's server. CPU is this process's user + system time over ${eventRounds * eventBatch} requests per cell, the cells taking turns in batches of ${eventBatch}.`,
});

/** Starts `count` requests, waits until the server holds them all, and measures memory per request in flight. */
async function heapPerRequest(run: () => Promise<void>, count: number): Promise<{ heap: number; offHeap: number }> {
  const before = await settledMemory();
  server.send({ hold: count });
  const heldAll = once(server, 'message');
  const pending = Array.from({ length: count }, () => run());
  await heldAll;
  const during = await settledMemory();
  server.send({ release: true });
  await Promise.all(pending);
  return { heap: (during.heapUsed - before.heapUsed) / count, offHeap: (during.external - before.external) / count };
}

// Memory per request in flight; a first round per variant opens the sockets, so the measured one counts the requests only.
const inFlight = sampleCount(2_000, 200);
const rows: string[][] = [];
const data: unknown[] = [];
for (const task of variants(true)) {
  await heapPerRequest(task.run, inFlight);
  const measured = await heapPerRequest(task.run, inFlight);
  rows.push([task.name, `${(measured.heap / 1024).toFixed(1)} KiB`, `${(measured.offHeap / 1024).toFixed(1)} KiB`]);
  data.push({ name: task.name, requests: inFlight, heapBytesPerRequest: Math.round(measured.heap), offHeapBytesPerRequest: Math.round(measured.offHeap) });
}
report({
  id: 'providers.request.memory-in-flight',
  title: `Memory per streamed request in flight (${inFlight} held by the server at once)`,
  peer: 'bare fetch',
  columns: ['task', 'heap per request', 'off-heap per request'],
  rows,
  data,
  note: 'Heap after GC while the server holds every request, minus the heap before, divided by the count; the sockets were opened by a first round and are reused, so socket buffers are not counted.',
});

server.disconnect();
if (sink === 0 || QUICK) console.log(`bench: ${QUICK ? 'quick run, figures not for reporting' : ''}`);
