/**
 * The Plan → Apply gate (seed 000): after the check and before anything runs,
 * a program that calls a tool marked `requiresApproval`, or that a plugin's
 * `programChecked` hook holds, pauses for a person; a hook may also deny it.
 */
import type { ToolRegistry } from '@askloop/tools';
import type { PreparedProgram } from '../interpreter/loop-interpreter.ts';
import { callFirst } from '../plugin/call-hook.ts';
import type { Approval, TurnContext } from '../plugin/plugin.ts';
import type { NamedHooks } from '../plugin/resolve-plugins.ts';

/** The gate's answer for a checked program. */
export async function gateProgram(hooks: readonly NamedHooks[], registry: ToolRegistry, prepared: PreparedProgram, turn: TurnContext): Promise<Approval> {
  const answer = await callFirst(hooks, 'programChecked', prepared, turn);
  if (answer?.kind === 'deny') return answer;
  // Named as the program writes them (`tool.rocket.Launch`), not by their canonical lower-case names.
  const gated = prepared.approvedTools.map((name) => registry.get(name)).filter((spec) => spec?.requiresApproval === true).map((spec) => spec?.displayName as string);
  if (answer?.kind === 'require-approval') return answer;
  if (gated.length > 0) return { kind: 'require-approval', message: `the program calls ${gated.join(', ')}, which ${gated.length === 1 ? 'needs' : 'need'} a person's approval before the program runs` };
  return { kind: 'approve' };
}
