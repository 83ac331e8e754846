/**
 * Evaluator benchmark (README "Benchmarks (evaluation)"): a few compute
 * programs as NeuroScript run by the evaluator inside an isolated-vm isolate,
 * beside the same algorithm as plain JavaScript in the same isolate, and
 * beside that JavaScript in QuickJS (quickjs-emscripten), the sandbox many
 * agent frameworks use. Each sample is one whole run in the isolate (the
 * NeuroScript side includes instantiating the JavaScript the host generated
 * from the AST, as every real run does; generating it happens once, in the
 * host, as `execute` does). The three sides are timed in alternating blocks. Reports
 * median and p10–p90 in ms and the ratios of medians.
 *
 * Run: `node --conditions=@askloop/source --no-node-snapshot bench/eval.bench.ts`.
 */
import ivm from 'isolated-vm';
import { getQuickJS } from 'quickjs-emscripten';
import { formatRatio, formatStats, QUICK, report, stats, type Stats } from '../../../scripts/bench-harness.ts';
import { compileEvaluation } from '../src/evaluate/index.ts';
import { parse } from '../src/parse/index.ts';
import { RUNTIME_BUNDLE_SOURCE } from '../src/run/runtime-bundle-source.generated.ts';

interface Workload {
  readonly name: string;
  /** NeuroScript library + command. */
  readonly library: string;
  readonly command: string;
  /** The same algorithm in JavaScript; an expression whose value is the result. */
  readonly javascript: string;
}

const WORKLOADS: Workload[] = [
  {
    name: 'fib(25)',
    library: 'func fib(needs n returns r) means\n  if n < 2\n    return n\n  endif\n  return fib(n - 1) + fib(n - 2)\nendfunc\n',
    command: 'command\n  emit fib(25)\nendcommand\n',
    javascript: '(() => { function fib(n) { if (n < 2) return n; return fib(n - 1) + fib(n - 2); } return fib(25); })()',
  },
  {
    name: 'loop sum 1e5',
    library: '',
    command: 'command\n  set i = 0\n  set sum = 0\n  while i < 100000\n    set sum = sum + i\n    set i = i + 1\n  endwhile\n  emit sum\nendcommand\n',
    javascript: '(() => { let i = 0, sum = 0; while (i < 100000) { sum = sum + i; i = i + 1; } return sum; })()',
  },
  {
    name: 'string building 2e4',
    library: '',
    command: 'command\n  set s = ""\n  set i = 0\n  while i < 20000\n    set s = s + "x" + (i % 10)\n    set i = i + 1\n  endwhile\n  emit len(s)\nendcommand\n',
    javascript: '(() => { let s = "", i = 0; while (i < 20000) { s = s + "x" + (i % 10); i = i + 1; } return s.length; })()',
  },
  {
    name: 'list/map work 1e4',
    library: '',
    command:
      'command\n  set l = []\n  set i = 0\n  while i < 10000\n    set l[len(l)] = i * 7 % 13\n    set i = i + 1\n  endwhile\n  set counts = {}\n  for each x in l\n    if counts[x] == nil\n      set counts[x] = 0\n    endif\n    set counts[x] = counts[x] + 1\n  endfor\n  emit counts[3]\nendcommand\n',
    javascript:
      '(() => { const l = []; let i = 0; while (i < 10000) { l[l.length] = i * 7 % 13; i = i + 1; } const counts = new Map(); for (const x of l) { const k = String(x); if (counts.get(k) === undefined) counts.set(k, 0); counts.set(k, counts.get(k) + 1); } return counts.get("3"); })()',
  },
];

/** Samples each side takes in a row before the next side's turn. */
const BLOCK = 5;

/**
 * Times each of `runs` `samples` times, in alternating blocks of {@link BLOCK} samples (after `warmup` unmeasured runs
 * of each), so every side sees the same stretches of the machine: its speed swings by more than 1.5× within seconds
 * on the shared build machines, which moved the ratio of two cells measured one after the other from 1.6× to 2.6×
 * between runs. Blocks rather than single samples keep each side's steady state: alternating every run disturbed the
 * optimised code of the other side (a loop measured 0.5 ms in blocks, 4.4 ms when interleaved run by run).
 */
function measureAlternating(runs: readonly (() => unknown)[], samples: number, warmup = 3): Stats[] {
  for (const run of runs) for (let index = 0; index < warmup; index += 1) run();
  const times = runs.map((): number[] => []);
  for (let taken = 0; taken < samples; taken += BLOCK) {
    runs.forEach((run, side) => {
      for (let index = taken; index < Math.min(samples, taken + BLOCK); index += 1) {
        const start = performance.now();
        run();
        times[side]?.push(performance.now() - start);
      }
    });
  }
  return times.map((list) => stats(list));
}

function program(source: string) {
  const result = parse(source);
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  return result.program;
}

const samples = Number(process.env.SAMPLES ?? (QUICK ? 2 : 30));
const isolate = new ivm.Isolate({ memoryLimit: 256 });
const context = isolate.createContextSync();
// As the sandbox's `__host` (isolate-sources.ts): a checkpoint over shared memory, which the evaluator writes each fuel window.
context.evalSync(
  'globalThis.__host = { callTool() { throw new Error("no tools in the benchmark"); }, event() {}, now: () => Date.now(), checkpoint: new Float64Array(new SharedArrayBuffer(16)) };',
);
context.evalSync(RUNTIME_BUNDLE_SOURCE);
const quickjs = await getQuickJS();

const rows: string[][] = [];
const data: unknown[] = [];
for (const workload of WORKLOADS) {
  // The host compiles the program (as `execute` does); the isolate instantiates and runs it.
  const input = compileEvaluation({
    program: program(workload.command),
    libraries: workload.library === '' ? [] : [program(workload.library)],
    limits: { fuel: 1e9, loopIterations: 1e9, wallMs: 60_000 },
  });
  context.global.setSync('__input', new ivm.ExternalCopy(input).copyInto());
  const neuroscriptResult = context.evalSync('JSON.stringify(__askloopEvaluate(__input).emits)') as string;
  const javascriptResult = String(context.evalSync(workload.javascript));
  if (neuroscriptResult !== JSON.stringify([javascriptResult])) throw new Error(`${workload.name}: ${neuroscriptResult} vs ${javascriptResult}`);
  const script = isolate.compileScriptSync(workload.javascript);
  const evaluate = isolate.compileScriptSync('__askloopEvaluate(__input).ok');
  // QuickJS gets a warm, reused context (the isolate's JavaScript runs in a reused context too).
  const vm = quickjs.newContext();
  const [ns, js, qjs] = measureAlternating(
    [() => evaluate.runSync(context), () => script.runSync(context), () => vm.unwrapResult(vm.evalCode(workload.javascript)).dispose()],
    samples,
    QUICK ? 1 : 3,
  ) as [Stats, Stats, Stats];
  vm.dispose();
  rows.push([workload.name, formatStats(ns), formatStats(js), formatStats(qjs), formatRatio(ns.median / js.median), formatRatio(ns.median / qjs.median)]);
  data.push({ workload: workload.name, neuroscript: ns, v8: js, quickjs: qjs, ratioV8: ns.median / js.median, ratioQuickJs: ns.median / qjs.median });
}
report({
  id: 'interpreter.eval',
  title: 'Evaluation: NeuroScript in the isolate vs the same JavaScript in V8 and in QuickJS',
  peer: 'the same algorithm as JavaScript in the same isolate (V8), and in a warm QuickJS context (quickjs-emscripten)',
  note: `Aim: fib(25) ≤ 2× V8. Each NeuroScript sample is a whole run in the isolate (instantiating the code the host generated included; generating it is the host's). ${samples} samples per cell, taken in alternating blocks of ${BLOCK} (NeuroScript, V8, QuickJS, again), so the three sides see the same stretches of a machine whose speed swings.`,
  columns: ['workload', 'NeuroScript (isolate)', 'JavaScript (same isolate)', 'JavaScript (QuickJS)', 'NS ÷ V8', 'NS ÷ QuickJS'],
  rows,
  data,
});
isolate.dispose();
