/**
 * The plugin the controller's tests run on: the scripted provider with the
 * given replies, every safe built-in tool pack, and a `test` pack with a tool
 * that needs approval and a write tool whose effects are counted (to prove a
 * re-executed turn replays instead of acting twice).
 */
import type { ScriptedReplies, ScriptedReply } from '@askloop/providers';
import { createScriptedProvider } from '@askloop/providers';
import { createSafeToolPacks, defineTool, defineToolPack, type ToolPack } from '@askloop/tools';
import type { AgentDefinition } from '../src/agent/agent-definition.ts';
import { definePlugin, type AskLoopPlugin } from '../src/plugin/plugin.ts';

/** Effects of `tool.test.Bump`, by key. */
export type EffectLog = Map<string, number>;

/** The `test` tool pack. */
export function createTestTools(effects: EffectLog): ToolPack {
  return defineToolPack('test', [
    defineTool(
      { name: 'tool.test.Deploy', description: 'Pretends to deploy; needs a person to approve.', args: [{ name: 'target', type: 'string' }], returns: 'string', effect: 'external', requiresApproval: true },
      (args) => `deployed ${String(args.target)}`,
    ),
    defineTool(
      { name: 'tool.test.Sleep', description: 'Waits ms milliseconds (for time-out tests).', args: [{ name: 'ms', type: 'int' }], returns: 'nil' },
      async (args, context) => {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Number(args.ms));
          context.signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
        });
        return null;
      },
    ),
    defineTool(
      { name: 'tool.test.SlowBump', description: 'Adds one to a counter at once, then waits ms milliseconds before it returns (a slow write).', args: [{ name: 'key', type: 'string' }, { name: 'ms', type: 'int' }], returns: 'int', effect: 'write' },
      async (args, context) => {
        const key = String(args.key);
        const next = (effects.get(key) ?? 0) + 1;
        effects.set(key, next);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Number(args.ms));
          context.signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
        });
        return next;
      },
    ),
    defineTool(
      { name: 'tool.test.Bump', description: 'Adds one to a counter and returns it (a write).', args: [{ name: 'key', type: 'string' }], returns: 'int', effect: 'write' },
      (args) => {
        const key = String(args.key);
        const next = (effects.get(key) ?? 0) + 1;
        effects.set(key, next);
        return next;
      },
    ),
  ]);
}

/** A reply in the cases' shorthand: a verbatim string, `{ actions: [...lines], padBytes? }`, `{ program: "…" }`, or a ScriptedReply object. */
export type CaseReply = string | { readonly actions: readonly string[]; readonly after?: string; readonly padBytes?: number } | { readonly program: string; readonly after?: string } | ScriptedReply;

/** An envelope around `program` as a model would send it. */
export function envelope(program: string, after = ''): string {
  return ['<<<NSENV:V4:START>>>', '<<<NSENV:V4:USERDATA>>>', '{}', '<<<NSENV:V4:ACTIONS>>>', program, '<<<NSENV:V4:END>>>', after].join('\n');
}

/** Expands the shorthand into scripted replies. */
export function expandReplies(replies: readonly CaseReply[]): ScriptedReply[] {
  return replies.map((reply) => {
    if (typeof reply === 'string') return reply;
    // `padBytes`: a comment line that long inside the program, for a reply over a size limit without a file that large.
    if ('actions' in reply) return envelope(['command', ...reply.actions.map((line) => `  ${line}`), ...(reply.padBytes === undefined ? [] : [`  # ${'x'.repeat(reply.padBytes)}`]), 'endcommand'].join('\n'), reply.after);
    if ('program' in reply) return envelope(reply.program, reply.after);
    return reply;
  });
}

/** The test plugin: `scripted:<model>` for each entry of `models`, the tools, and `agents`. */
export function testPlugin(models: Record<string, ScriptedReplies>, effects: EffectLog = new Map(), agents: Record<string, AgentDefinition> = {}): AskLoopPlugin {
  return definePlugin({
    name: 'test',
    specificationVersion: 'v1',
    providers: { scripted: createScriptedProvider({ models }) },
    toolPacks: [...createSafeToolPacks(), createTestTools(effects)],
    agents,
  });
}
