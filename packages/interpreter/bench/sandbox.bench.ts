/**
 * Sandbox benchmark: per-run overhead of a sandbox run with warm workers — a
 * fresh context, a small runtime bundle, the AST-sized JSON of a 20-line
 * program in, a result out, all through the worker process — beside the
 * floor, a bare isolated-vm `createContext` + trivial eval in this process.
 * Reports median and p10–p90 in milliseconds and the ratio of medians.
 *
 * Run: `pnpm bench`, or `node --conditions=@askloop/source --no-node-snapshot bench/sandbox.bench.ts`.
 */
import ivm from 'isolated-vm';
import { formatRatio, formatStats, report, sampleCount, stats, type Stats } from '../../../scripts/bench-harness.ts';
import { createRuntimeBundle, createSandboxPool } from '../src/sandbox/index.ts';

/**
 * Samples `run` and `floor` in alternating blocks of 50, so load from other
 * processes lands on both alike (blocks rather than single samples, so the
 * floor is not measured while the worker prepares its next context).
 */
async function measurePair(run: () => Promise<unknown>, floor: () => Promise<unknown>, samples: number, idleMs = 0): Promise<[Stats, Stats]> {
  for (let index = 0; index < Math.max(Math.min(50, samples), samples / 5); index += 1) {
    await run();
    await floor();
  }
  const runTimes: number[] = [];
  const floorTimes: number[] = [];
  const block = Math.min(50, samples);
  for (let done = 0; done < samples; done += block) {
    for (const [operation, times] of [[run, runTimes], [floor, floorTimes]] as const) {
      for (let index = 0; index < block; index += 1) {
        // An agent's turns are seconds apart (the model call); `idleMs` lets the worker idle between runs, unmeasured.
        // The floor idles as long before each of its samples, so both are measured from the same idle start (caches, CPU wake-up).
        if (idleMs > 0) await new Promise((resolve) => setTimeout(resolve, idleMs));
        const start = performance.now();
        await operation();
        times.push(performance.now() - start);
      }
    }
  }
  return [stats(runTimes), stats(floorTimes)];
}


/** A stand-in runtime: walks an AST-shaped input, emits, and calls a tool where the program does. */
const runtime = createRuntimeBundle(
  `
globalThis.runProgram = function runProgram(program) {
  const emits = [];
  const evaluate = (node) => {
    switch (node.type) {
      case 'string': case 'number': return node.value;
      case 'binary': return evaluate(node.left) + evaluate(node.right);
      case 'call': return __host.callTool(node.name, node.args.map(evaluate)).value;
      default: throw new Error('unknown node ' + node.type);
    }
  };
  for (const statement of program.body) {
    const value = evaluate(statement.expression);
    if (statement.type === 'emit') { emits.push(String(value)); if (program.stream) __host.event('emit', value); }
  }
  return { emits };
};
`,
  'bench-runtime',
);

/** The AST-sized JSON of a 20-line program: 20 statements with positions and small expressions. */
function program(toolCalls: number, stream: boolean): unknown {
  const body = Array.from({ length: 20 }, (_, line) => ({
    type: line % 2 === 0 ? 'emit' : 'set',
    position: { line: line + 2, column: 3, offset: line * 40 },
    expression:
      line < toolCalls
        ? { type: 'call', name: 'tool.str.toupper', args: [{ type: 'string', value: `line ${line}` }] }
        : { type: 'binary', operator: '+', left: { type: 'string', value: `value ${line} ` }, right: { type: 'number', value: line } },
  }));
  return { type: 'program', name: 'bench', body, stream };
}

const pool = createSandboxPool({ workers: 2 });
await pool.warmup();
const onToolCall = (_name: string, args: unknown) => String((args as unknown[])[0]).toUpperCase();
const cases: Array<[string, unknown]> = [
  ['20-line program, no tool calls', program(0, false)],
  ['20-line program, 1 tool call', program(1, false)],
  ['20-line program, 10 emits streamed', program(0, true)],
];

const isolate = new ivm.Isolate({ memoryLimit: 64 });
const floor = async (): Promise<void> => {
  const context = await isolate.createContext();
  await context.eval('1 + 1');
  context.release();
};

const rows: string[][] = [];
const data: unknown[] = [];
for (const [idleMs, mode] of [[2, 'warm idle worker'], [0, 'back to back']] as const) {
  for (const [name, input] of cases) {
    const [run, base] = await measurePair(async () => {
      const result = await pool.run({ runtime, entry: 'runProgram', input, onToolCall, onEvent: () => {} });
      if (!result.ok) throw result.error;
    }, floor, sampleCount(1_000, 10), idleMs);
    rows.push([`${name}, ${mode}`, formatStats(run), formatStats(base), formatRatio(run.median / base.median)]);
    data.push({ case: name, mode, run, floor: base, ratio: run.median / base.median });
  }
}
const [fresh, base] = await measurePair(async () => {
  const own = new ivm.Isolate({ memoryLimit: 64 });
  const context = await own.createContext();
  await (await own.compileScript(runtime.source)).run(context);
  await context.evalClosure('return JSON.stringify(runProgram(JSON.parse($0)))', [JSON.stringify(program(0, false))]);
  own.dispose();
}, floor, sampleCount(300, 10));
rows.push(['for comparison: a fresh isolate per run (compile + run the runtime), in process', formatStats(fresh), formatStats(base), formatRatio(fresh.median / base.median)]);
data.push({ case: 'fresh isolate per run', run: fresh, floor: base, ratio: fresh.median / base.median });
isolate.dispose();
await pool.close();
report({
  id: 'interpreter.sandbox',
  title: 'Sandbox run on a warm worker vs the bare isolate floor',
  peer: 'a bare isolated-vm `createContext` + `eval("1 + 1")` in the bench process, sampled in alternating blocks in the same run',
  note: 'Aim: ≤ 1.5× the floor. The run crosses to the worker process and back (input, tool calls, events, result); the floor does not leave the process. In the warm-idle rows both the run and the floor idle 2 ms before each sample.',
  columns: ['case', 'sandbox run, median (p10 – p90)', 'floor: createContext + eval', 'ratio of medians'],
  rows,
  data,
});
