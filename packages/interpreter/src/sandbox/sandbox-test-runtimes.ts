/**
 * Runtime bundles shared by the sandbox tests: small classic scripts that
 * define `globalThis.main`, standing in for the NeuroScript evaluator.
 */
import { createRuntimeBundle, type RuntimeBundle } from './runtime-bundle.ts';

/** A runtime whose `main(input)` runs `body` (a function body that may use `input` and `__host`). */
export function runtimeOf(body: string, name = 'test'): RuntimeBundle {
  return createRuntimeBundle(`globalThis.main = function main(input) {\n${body}\n};`, name);
}

/** `main(x)` returns `x + 1`: the normal program every runaway test runs afterwards. */
export const ADD_ONE = runtimeOf('return input + 1;', 'add-one');

/** A tool handler for runs that make no tool calls. */
export const NO_TOOLS = (): never => {
  throw new Error('this test run makes no tool calls');
};
