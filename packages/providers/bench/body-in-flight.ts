/**
 * What one request in flight holds, measured with a prompt of the size the
 * controller sends (a JSON body of about 6 KiB): many streamed requests
 * through the OpenAI-compatible provider, held unanswered by the loopback
 * server (`held-model-server.ts`, its own process) until all have arrived,
 * then the process's RSS, V8 heap and memory outside the heap (`external`,
 * where Buffers live) after a full collection, less the same before them.
 *
 * One process measures one transport:
 *
 *   node --conditions=@askloop/source --expose-gc bench/body-in-flight.ts [--transport PATH] [--requests N]
 *
 * prints one JSON line. `PATH` is a `node-http-fetch.ts` to load instead of
 * this package's, e.g. one of an older checkout, so two versions of the
 * transport can be compared under the same provider and SDK:
 *
 *   … bench/body-in-flight.ts --compare OTHER_PATH [--runs 5] [--requests N]
 *
 * runs fresh processes of this package's transport and of `OTHER_PATH` by
 * turns and prints the medians and ranges of each. Not part of `pnpm bench` (it runs only `*.bench.ts`):
 * 5,000 connections at once is a load of its own.
 */
import { execFile, fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { createOpenAICompatibleProvider } from '@askloop/providers';
import { stats } from '../../../scripts/bench-harness.ts';
import { settledMemory } from './settled-memory.ts';

const OWN_TRANSPORT = new URL('../src/call/node-http-fetch.ts', import.meta.url).pathname;
const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? undefined : args[index + 1];
};
const requests = Number(option('requests') ?? 5_000);
/** Requests started at a time (the rest a few milliseconds later, batch by batch); all at once by default. */
const batch = Number(option('batch') ?? requests);

/** Per request in flight, in bytes; `rssPeakMiB` is the process's whole RSS with all of them in flight. */
interface Measured {
  transport: string;
  bodyBytes: number;
  cold: { rss: number; heap: number; external: number };
  warm: { rss: number; heap: number; external: number };
  rssPeakMiB: number;
}

const compareWith = option('compare');
if (compareWith !== undefined) await compare(compareWith, Number(option('runs') ?? 5));
else console.log(JSON.stringify(await measureOne(option('transport') ?? OWN_TRANSPORT)));

/** Measures `transport` in this process. */
async function measureOne(transport: string): Promise<Measured> {
  const { createNodeHttpFetch } = (await import(transport)) as { createNodeHttpFetch: (options: { keepAliveMs: number }) => typeof globalThis.fetch };
  const server: ChildProcess = fork(new URL('./held-model-server.ts', import.meta.url), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [{ port }] = (await once(server, 'message')) as [{ port: number }];
  // Kept until the server closes them (60 s), so the second round reuses the first round's connections.
  const fetch = createNodeHttpFetch({ keepAliveMs: 0 });
  const model = createOpenAICompatibleProvider({ name: 'bench', baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'sk-bench-0123456789abcdef', fetch }).languageModel('bench-model');
  // About the controller's turn: its rules as the system text and an envelope as the prompt, ~6 KiB as JSON.
  const system = 'You write NeuroScript programs. Answer with one AEIOU v4 envelope. '.repeat(80);
  const prompt = '<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{"subject":"bench"}\n<<<NSENV:V4:END>>>';
  const bodyBytes = Buffer.byteLength(JSON.stringify({ model: 'bench-model', messages: [{ role: 'system', content: system }, { role: 'user', content: prompt }] }));
  let sink = 0;
  const run = async (): Promise<void> => {
    sink += (await model.generate({ system, prompt, onText: (delta) => (sink += delta.length) })).text.length;
  };
  /** One round of `requests` held at once: memory per request in flight, and the RSS then. */
  const round = async (): Promise<{ perRequest: Measured['cold']; rss: number }> => {
    const before = await settledMemory();
    server.send({ hold: requests });
    const heldAll = once(server, 'message');
    const pending: Promise<void>[] = [];
    while (pending.length < requests) {
      if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 5));
      for (let index = 0; index < batch && pending.length < requests; index++) pending.push(run());
    }
    await heldAll;
    const during = await settledMemory();
    server.send({ release: true });
    await Promise.all(pending);
    const per = (field: 'rss' | 'heapUsed' | 'external'): number => Math.round((during[field] - before[field]) / requests);
    return { perRequest: { rss: per('rss'), heap: per('heapUsed'), external: per('external') }, rss: during.rss };
  };
  for (let index = 0; index < 20; index++) await run(); // loads the SDK, warms the code
  const cold = await round(); // opens the connections
  const warm = await round(); // reuses them: what the requests alone hold
  server.disconnect();
  if (sink === 0) throw new Error('no reply was read');
  return { transport, bodyBytes, cold: cold.perRequest, warm: warm.perRequest, rssPeakMiB: Math.round(Math.max(cold.rss, warm.rss) / 2 ** 20) };
}

/** Fresh processes of this package's transport and of `other`, by turns; medians and ranges of each. */
async function compare(other: string, runs: number): Promise<void> {
  const self = new URL(import.meta.url).pathname;
  const results: Record<'this' | 'other', Measured[]> = { this: [], other: [] };
  for (let index = 0; index < runs; index++) {
    // Which goes first alternates too, so a drift in the machine's load falls on both alike.
    const order = index % 2 === 0 ? (['other', 'this'] as const) : (['this', 'other'] as const);
    for (const side of order) {
      const transport = side === 'this' ? OWN_TRANSPORT : other;
      const { stdout } = await promisify(execFile)(process.execPath, [...process.execArgv, self, '--transport', transport, '--requests', String(requests), '--batch', String(batch)], { maxBuffer: 1 << 20 });
      results[side].push(JSON.parse(stdout.trim().split('\n').at(-1)!) as Measured);
    }
  }
  const kib = (bytes: number): string => (bytes / 1024).toFixed(2);
  const cell = (values: number[], format: (value: number) => string): string => `${format(stats(values).median)} (${format(Math.min(...values))} – ${format(Math.max(...values))})`;
  console.log(`${requests} streamed requests in flight, body ${results.this[0]!.bodyBytes} bytes, ${runs} fresh processes each, by turns; median (range), KiB per request`);
  for (const side of ['other', 'this'] as const) {
    const rows = results[side];
    console.log(`${side === 'this' ? 'this package' : other}:`);
    for (const phase of ['cold', 'warm'] as const) {
      const of = (field: 'rss' | 'heap' | 'external'): number[] => rows.map((row) => row[phase][field]);
      console.log(`  ${phase === 'cold' ? 'new connections ' : 'reused          '} rss ${cell(of('rss'), kib)}  heap ${cell(of('heap'), kib)}  external ${cell(of('external'), kib)}`);
    }
    console.log(`  peak RSS MiB ${cell(rows.map((row) => row.rssPeakMiB), String)}`);
  }
  console.log(JSON.stringify(results));
}
