/**
 * A plugin (rollup style): a plain object from a factory, `name` first. It
 * contributes providers, tool packs (static, or listed asynchronously before
 * each turn, as MCP servers are), agent definitions and hooks. The built-in
 * providers and tool packs are plugins too. `createAskLoop` resolves the list
 * once: names must be unique, and anything a plugin throws is rewrapped as
 * `LOOP_PLUGIN_ERROR` naming the plugin and the hook.
 */
import type { Provider } from '@askloop/providers';
import type { ToolPack } from '@askloop/tools';
import type { AgentDefinition } from '../agent/agent-definition.ts';
import type { LoopDecision } from '../decide/loop-decision.ts';
import type { LoopEvent } from '../events/loop-event.ts';
import type { PreparedProgram } from '../interpreter/loop-interpreter.ts';
import type { TurnRecord } from '../loop/turn-record.ts';

/**
 * Tools discovered at run time (an MCP server): listed before each turn, and
 * once before `run`, `resume`, `approve` or `deny` stores or changes anything
 * (a source that cannot start leaves the store as it was), closed with the loop.
 */
export interface ToolSource {
  readonly name: string;
  /** The current packs; called before each turn (cheap when nothing changed). */
  toolPacks(): Promise<readonly ToolPack[]>;
  close?(): Promise<void>;
}

/** What a hook sees of the turn in progress. */
export interface TurnContext {
  readonly sid: string;
  readonly loopId: string;
  readonly turnIndex: number;
  readonly agent: string;
  /** The record so far (phase, envelope, reply, actions, diagnostics…). */
  readonly record: Readonly<TurnRecord>;
}

/** A gate's answer for a checked program (seed 000's Plan → Apply). */
export type Approval =
  | { readonly kind: 'approve' }
  | { readonly kind: 'require-approval'; readonly message: string }
  | { readonly kind: 'deny'; readonly message: string };

/** Every hook optional; how each composes is fixed. */
export interface LoopHooks {
  /** Sequential, in plugin order, before the model is asked. */
  turnStart?(turn: TurnContext): void | Promise<void>;
  /** After the check, before anything runs; the first non-undefined answer wins. Any other answer is `LOOP_PLUGIN_ERROR` (the program does not run). */
  programChecked?(program: PreparedProgram, turn: TurnContext): Approval | undefined | Promise<Approval | undefined>;
  /** After the built-in decision would be CONTINUE: a plugin's own stop condition; first answer wins (awaited, so it may be async). CONTINUE, DONE (`result` a string or null) or HALT (a reason of `HALT_REASONS`, a message); anything else is `LOOP_PLUGIN_ERROR`. */
  decide?(turn: TurnContext): Extract<LoopDecision, { kind: 'CONTINUE' | 'DONE' | 'HALT' }> | undefined | Promise<Extract<LoopDecision, { kind: 'CONTINUE' | 'DONE' | 'HALT' }> | undefined>;
  /** Observe only; called for every event, errors rewrapped and reported, never stopping the loop. */
  event?(event: LoopEvent): void;
}

/** What a plugin factory returns (`acmePlugin(settings)`). */
export interface AskLoopPlugin {
  /** Unique; names the plugin in errors and logs. */
  readonly name: string;
  /** Bumped only when this interface changes. */
  readonly specificationVersion: 'v1';
  /** Reachable as `<key>:<model>`; the key must equal `provider.name`. */
  readonly providers?: Readonly<Record<string, Provider>>;
  readonly toolPacks?: readonly ToolPack[];
  readonly toolSources?: readonly ToolSource[];
  /** Reachable by name (`agent: 'NAME'`, `askloop run --agent NAME`); the key must equal the agent's `name`. */
  readonly agents?: Readonly<Record<string, AgentDefinition>>;
  readonly hooks?: LoopHooks;
}

/** Identity helper that type-checks a plugin object. */
export function definePlugin<const Plugin extends AskLoopPlugin>(plugin: Plugin): Plugin {
  return plugin;
}
