/**
 * The host the concurrency benchmarks measure: one `createAskLoop` with a
 * SQLite transcript file, a warm sandbox pool of 2 workers, and the
 * OpenAI-compatible provider reaching a loopback model server over real HTTP.
 * Shared by `concurrency.bench.ts` and the fresh-process 10,000-session run
 * (`ten-thousand-sessions.ts`), so both measure the same host.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandboxPool } from '@askloop/interpreter';
import { createOpenAICompatibleProvider } from '@askloop/providers';
import { createSafeToolPacks } from '@askloop/tools';
import { createAskLoop, createSqliteTranscriptStore, definePlugin, type AskLoop, type LoopResult, type TranscriptStore } from '../src/index.ts';

/** A host ready to run sessions, and how to take it down. */
export interface BenchHost {
  readonly loop: AskLoop;
  /** Its transcript store (a SQLite file). */
  readonly store: TranscriptStore;
  close(): Promise<void>;
}

/** Builds the host against the model server on `port`. */
export async function createBenchHost(port: number): Promise<BenchHost> {
  const directory = mkdtempSync(join(tmpdir(), 'askloop-concurrency-bench-'));
  const store = createSqliteTranscriptStore(join(directory, 'transcript.db'));
  const pool = createSandboxPool({ workers: 2 });
  await pool.warmup();
  const plugin = definePlugin({
    name: 'bench',
    specificationVersion: 'v1',
    providers: { local: createOpenAICompatibleProvider({ name: 'local', baseURL: `http://127.0.0.1:${port}/v1` }) },
    toolPacks: createSafeToolPacks(),
  });
  const loop = createAskLoop({ plugins: [plugin], store, pool });
  return {
    loop,
    store,
    async close() {
      await loop.close();
      await pool.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * The benchmark's agent. Default quotas: a run's wall clock starts when a
 * sandbox worker takes it, so waiting behind other sessions' turns (for a run
 * slot or a worker) never counts against the program.
 */
export const benchAgent = (maxTurns: number) => ({ name: 'bench', model: 'local:bench', ceilings: { maxTurns } });

/** Runs `sessions` sessions of `turns` turns at once with `loop.run`. */
export async function runSessions(loop: AskLoop, sessions: number, turns: number): Promise<{ turns: number; finishedMs: number[]; wallMs: number; halts: Record<string, number> }> {
  const started = performance.now();
  const finishedMs: number[] = [];
  const halts: Record<string, number> = {};
  let total = 0;
  await Promise.all(
    Array.from({ length: sessions }, async () => {
      const result: LoopResult = await loop.run({ agent: benchAgent(turns), task: 'bench' });
      total += result.turns;
      const key = `${result.status}${result.reason === null ? '' : ` ${result.reason}`}`;
      halts[key] = (halts[key] ?? 0) + 1;
      finishedMs.push(performance.now() - started);
    }),
  );
  return { turns: total, finishedMs, wallMs: performance.now() - started, halts };
}
