/**
 * Calls plugin hooks with their fixed composition (sequential, first answer
 * wins, observe-only) and rewraps anything a hook throws, or an answer the
 * loop does not know, as `LOOP_PLUGIN_ERROR { plugin, hook, cause }`.
 */
import { LoopError } from '../errors/loop-error.ts';
import { approvalProblem, decisionProblem } from './hook-answers.ts';
import type { LoopHooks } from './plugin.ts';
import type { NamedHooks } from './resolve-plugins.ts';

type HookName = keyof LoopHooks;

/** Wraps a throw from `plugin`'s `hook`; `call` is how the message shows the call, when it says more (`hook('m')`). */
export function pluginError(plugin: string, hook: string, cause: unknown, call = hook): LoopError {
  const message = cause instanceof Error ? cause.message : String(cause);
  return new LoopError({ code: 'LOOP_PLUGIN_ERROR', message: `plugin '${plugin}' failed in ${call}: ${message}`, plugin, hook, cause });
}

/** Calls `hook` of every plugin in order, awaiting each. */
export async function callSequential<H extends HookName>(hooks: readonly NamedHooks[], hook: H, ...args: Parameters<NonNullable<LoopHooks[H]>>): Promise<void> {
  for (const { plugin, hooks: table } of hooks) {
    const fn = table[hook] as ((...a: unknown[]) => unknown) | undefined;
    if (fn === undefined) continue;
    try {
      await fn.apply(table, args);
    } catch (error) {
      throw pluginError(plugin, hook, error);
    }
  }
}

/** What is wrong with `hook`'s answer, for the hooks whose answer steers the loop. */
function answerProblem(hook: HookName, answer: unknown): string | undefined {
  if (hook === 'programChecked') return approvalProblem(answer);
  if (hook === 'decide') return decisionProblem(answer);
  return undefined;
}

/**
 * Calls `hook` in plugin order until one returns something other than
 * undefined; an answer the loop does not know fails closed (`LOOP_PLUGIN_ERROR`).
 */
export async function callFirst<H extends HookName>(
  hooks: readonly NamedHooks[],
  hook: H,
  ...args: Parameters<NonNullable<LoopHooks[H]>>
): Promise<Awaited<ReturnType<NonNullable<LoopHooks[H]>>> | undefined> {
  for (const { plugin, hooks: table } of hooks) {
    const fn = table[hook] as ((...a: unknown[]) => unknown) | undefined;
    if (fn === undefined) continue;
    let answer: unknown;
    try {
      answer = await fn.apply(table, args);
    } catch (error) {
      throw pluginError(plugin, hook, error);
    }
    if (answer === undefined) continue;
    const problem = answerProblem(hook, answer);
    if (problem !== undefined) throw pluginError(plugin, hook, new Error(`its answer is not one the loop knows: ${problem}`));
    return answer as Awaited<ReturnType<NonNullable<LoopHooks[H]>>>;
  }
  return undefined;
}
