/**
 * What a tool is: its spec (name, arguments, return type, capabilities,
 * trust, effect, idempotence, timeout) and its handler. A spec is a superset
 * of the interpreter's `ToolSignature`, so the registry can hand specs to the
 * static checker as they are.
 */
import type { ToolSignature, ToolValueType } from './tool-signature.ts';
import type { ToolValue } from './tool-value.ts';
import type { ToolContext } from './tool-context.ts';
import type { Capability } from '../policy/capability.ts';

/** What a tool does to the world: `read` (nothing), `write` (durable state) or `external` (network, other systems). */
export type ToolEffect = 'read' | 'write' | 'external';

/** One declared argument of a tool, in call order. */
export interface ToolArgumentSpec {
  readonly name: string;
  readonly type: ToolValueType;
  readonly required: boolean;
  /** Used when an optional argument is missing or nil. Must already have the declared type. */
  readonly default?: ToolValue;
  readonly description: string;
}

/** Arguments after binding and coercion, by argument name (missing optional ones are nil or their default). */
export type ToolArguments = { readonly [name: string]: ToolValue };

/**
 * Computes the capabilities one call needs from its actual arguments, with
 * scopes (e.g. `fs:write:/data/x.txt`). Checked by `policy.authorize` before
 * the handler runs. Return parsed capabilities when a scope comes from user
 * data: in a string, commas would split it into several scopes.
 */
export type ToolScopeFunction = (args: ToolArguments) => readonly (string | Capability)[];

/** The full description of one tool. */
export interface ToolSpec extends ToolSignature {
  /** Canonical, lower-case name: `tool.<group>.<name>`. */
  readonly name: string;
  /** The name as written by its author, e.g. `tool.str.ToUpper`; used in messages and the catalogue. */
  readonly displayName: string;
  /** Group, lower case, e.g. `str` (may contain dots). */
  readonly group: string;
  /** One line shown in the catalogue; more may follow after a newline. */
  readonly description: string;
  readonly arguments: readonly ToolArgumentSpec[];
  readonly returns: ToolValueType;
  /** Capabilities every call needs, without scopes, e.g. `fs:write`. Checked statically. */
  readonly capabilities: readonly string[];
  /** Per-call capability needs computed from the arguments (with scopes). */
  readonly scopes?: ToolScopeFunction;
  /** When true, the tool runs only under a policy created with `trusted: true`. */
  readonly trusted: boolean;
  readonly effect: ToolEffect;
  /** True when running the call twice has the same effect as once (advisory; shown to plans). */
  readonly idempotent: boolean;
  /** Per-call timeout in milliseconds; the host's default applies when absent. */
  readonly timeoutMs?: number;
  /** When true, extra positional arguments past the declared ones are passed through as `rest`. */
  readonly variadic?: boolean;
  /**
   * When true, a program that calls this tool pauses the ask loop after the
   * static check and before anything runs, until a person approves or denies
   * it (seed 000's Plan → Apply gate). Ignored outside the loop.
   */
  readonly requiresApproval?: boolean;
}

/** Runs one call. Receives bound, coerced arguments; returns plain data (or a promise of it). */
export type ToolHandler = (args: ToolArguments, context: ToolContext) => ToolValue | undefined | Promise<ToolValue | undefined>;

/** A tool: its spec and its handler. */
export interface ToolDefinition {
  readonly spec: ToolSpec;
  readonly handler: ToolHandler;
}
