/**
 * A vitest reporter that writes what the JSON report leaves out to
 * `.reports/problems.json`: unhandled errors (a rejection or exception no test
 * awaited, a forked worker that died) and the errors of test files that failed
 * outside any test (a hook, an import). Either fails the run while every test
 * passes, and CI shows only the tail of its log, so `summarize-test-reports.mjs`
 * prints these last, where they are seen.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node';

/** One error, as plain data: its message and the first lines of its stack. */
interface ProblemError {
  readonly name: string;
  readonly message: string;
  readonly stack: string;
}

interface SerializedErrorLike {
  readonly name?: unknown;
  readonly message?: unknown;
  readonly stack?: unknown;
  readonly cause?: unknown;
}

const STACK_LINES = 6;

/** Its stack's own frames: vitest's (under node_modules) and Node's internal ones say nothing about the failure. */
function ownFrames(stack: unknown): string {
  if (typeof stack !== 'string') return '';
  return stack
    .split('\n')
    .filter((line) => line.trim().startsWith('at ') && !/node_modules|\(node:|<anonymous>|node:internal/.test(line))
    .slice(0, STACK_LINES)
    .join('\n');
}

function plainError(error: SerializedErrorLike): ProblemError {
  // A dead worker's error says only "Worker forks emitted error"; its cause names the file and the signal.
  const cause = typeof error.cause === 'object' && error.cause !== null ? (error.cause as SerializedErrorLike).message : undefined;
  const message = String(error.message ?? '') + (cause === undefined ? '' : ` (caused by: ${String(cause)})`);
  return { name: String(error.name ?? 'Error'), message, stack: ownFrames(error.stack) };
}

/** The errors of a file outside its tests: its own (an import, a top-level hook) and its suites' hooks. */
function moduleErrors(module: TestModule): ProblemError[] {
  const errors = module.errors().map(plainError);
  for (const suite of module.children.allSuites()) {
    for (const error of suite.errors()) errors.push({ ...plainError(error), name: `${suite.fullName}: ${String(error.name ?? 'Error')}` });
  }
  return errors;
}

/** Writes `.reports/problems.json` under the project root when a run ends; an empty report when nothing went wrong. */
export class ProblemsReporter implements Reporter {
  #root = process.cwd();

  onInit(vitest: Vitest): void {
    this.#root = vitest.config.root;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedErrorLike>, reason: TestRunEndReason): void {
    const modules = testModules
      .map((module) => ({ file: path.relative(this.#root, module.moduleId), state: module.state(), errors: moduleErrors(module) }))
      .filter((module) => module.errors.length > 0);
    const report = { reason, unhandledErrors: unhandledErrors.map(plainError), modules };
    const directory = path.join(this.#root, '.reports');
    mkdirSync(directory, { recursive: true });
    writeFileSync(path.join(directory, 'problems.json'), `${JSON.stringify(report, null, 2)}\n`);
  }
}
