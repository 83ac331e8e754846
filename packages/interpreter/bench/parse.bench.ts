/**
 * Front-end benchmark: parse, and parse+check, of 0.5, 2 and 8 KB
 * NeuroScript programs beside acorn parsing JavaScript of the same size (the
 * floor a hand-written parser reaches). Reports median and p10–p90 in
 * milliseconds and the ratio of medians.
 *
 * Run: `pnpm bench`, or `node --conditions=@askloop/source bench/parse.bench.ts`.
 */
import { parse as parseJs } from 'acorn';
import { formatRatio, formatStats, QUICK, report, sampleCount, stats, type Stats } from '../../../scripts/bench-harness.ts';
import { check, parse, type ToolCatalog } from '../src/index.ts';
import { javaScriptProgram, neuroScriptProgram } from './programs.ts';

const catalog: ToolCatalog = {
  get: (name) => (name.toLowerCase().endsWith('str.toupper') ? { name: 'tool.str.toupper', arguments: [{ name: 'input_string', type: 'string', required: true }] } : undefined),
  names: () => ['tool.str.toupper'],
  // Stands in for the host's policy decision (the tools package answers it in the real host).
  check: (name) => (name.startsWith('tool.str.') ? undefined : { code: 'POLICY_NOT_ALLOWED', message: `${name} is not allowed` }),
};

/**
 * Runs the contenders round-robin, one call each per round, so a busy machine
 * slows them alike and the ratio stays meaningful.
 */
function measure(runs: readonly (() => void)[], samples: number): Stats[] {
  const warmup = QUICK ? 1 : Math.max(20, samples / 5);
  for (let index = 0; index < warmup; index += 1) for (const run of runs) run();
  const times = runs.map((): number[] => []);
  for (let index = 0; index < samples; index += 1) {
    runs.forEach((run, which) => {
      const start = performance.now();
      run();
      times[which]?.push(performance.now() - start);
    });
  }
  return times.map((list) => stats(list));
}

const rows: string[][] = [];
const data: unknown[] = [];
for (const kilobytes of [0.5, 2, 8, 32]) {
  const bytes = kilobytes * 1024;
  const ns = neuroScriptProgram(bytes);
  const js = javaScriptProgram(bytes);
  const parsed = parse(ns);
  if (!parsed.ok) throw new Error(`benchmark program does not parse: ${JSON.stringify(parsed.diagnostics)}`);
  const samples = sampleCount(kilobytes >= 32 ? 60 : kilobytes >= 8 ? 200 : 500, 3);
  const [parseStats, checkStats, acornStats] = measure(
    [
      () => void parse(ns),
      () => {
        const result = parse(ns);
        if (result.ok) check(result.program, { mode: 'agent', tools: catalog });
      },
      () => void parseJs(js, { ecmaVersion: 'latest', locations: true }),
    ],
    samples,
  ) as [Stats, Stats, Stats];
  const ratio = checkStats.median / acornStats.median;
  rows.push([`${kilobytes} KB`, `${Buffer.byteLength(ns)} / ${Buffer.byteLength(js)}`, formatStats(parseStats), formatStats(checkStats), formatStats(acornStats), formatRatio(ratio)]);
  data.push({ kilobytes, nsBytes: Buffer.byteLength(ns), jsBytes: Buffer.byteLength(js), parse: parseStats, parseAndCheck: checkStats, acorn: acornStats, ratio });
}
report({
  id: 'interpreter.parse',
  title: 'Parse + check of an ACTIONS program vs acorn on JavaScript of the same size',
  peer: 'acorn 8 parsing JavaScript of the same byte size (`locations: true`), round-robin in the same process',
  note: 'Aim: parse + check ≤ 4× acorn at 2 KB and 8 KB. `parse` is the in-process parser (`parse()`: the matcher generated from the grammar; Ohm 17 only re-matches a program with a syntax error), without the bounded worker the interpreter uses for untrusted input.',
  columns: ['size', 'bytes NS / JS', 'parse, median (p10 – p90)', 'parse + check', 'acorn', 'parse + check ÷ acorn'],
  rows,
  data,
});
