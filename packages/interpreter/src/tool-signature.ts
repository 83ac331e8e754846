/**
 * The small interface through which the interpreter sees tools. The
 * interpreter defines it; `@askloop/tools` implements it (its full tool specs
 * carry more: capabilities, effect, timeouts…). The static checker uses it to
 * prove every tool reference exists and is called with an accepted number of
 * arguments; the run-time bridge uses it to call the tool in the host.
 */
import type { JsonValue } from './runtime/json-value.ts';

/** The value types a tool argument or result may declare. */
export type ToolValueType = 'string' | 'int' | 'float' | 'number' | 'bool' | 'list' | 'map' | 'any' | 'nil';

/** One declared argument of a tool, in call order. */
export interface ToolArgumentSignature {
  readonly name: string;
  readonly type: ToolValueType;
  readonly required: boolean;
}

/** What the interpreter needs to know about one tool. */
export interface ToolSignature {
  /** Canonical name, lower case: `tool.<group>.<name>`. */
  readonly name: string;
  /** The name as its author wrote it (`tool.str.ToUpper`), for messages; `name` when absent. */
  readonly displayName?: string;
  readonly arguments: readonly ToolArgumentSignature[];
  /** When true, any number of extra arguments past the declared ones is accepted. */
  readonly variadic?: boolean;
}

/** Why a host's policy refuses a tool: a stable code (e.g. `POLICY_CAPABILITY_MISSING`) and a message that names the fix. */
export interface ToolDenial {
  readonly code: string;
  readonly message: string;
  /**
   * For a denial a grant would lift: the grant to add, unquoted (`fs:write:/data/x.txt`; `ToolError.grant` of
   * `@askloop/tools`). The check's `SCRIPT_TOOL_DENIED` diagnostic carries it with `code` as its `grant`.
   */
  readonly grant?: string;
}

/**
 * One argument of a tool call as the static check sees it: its value when the
 * argument is a compile-time constant (a string, number, bool or nil literal,
 * or a list or map of them), `undefined` when it is computed at run time.
 */
export type StaticArgument = JsonValue | undefined;

/**
 * Lookup of tools by name, and the host's one policy. Lookups are
 * case-insensitive and accept the name with or without the `tool.` prefix.
 * The interpreter has no policy of its own: what `check` answers here is what
 * the static check reports, and the tool host that runs the calls applies the
 * same decision again with the actual arguments.
 */
export interface ToolCatalog {
  get(name: string): ToolSignature | undefined;
  /** Every canonical name, sorted. */
  names(): readonly string[];
  /**
   * The host's full policy decision for a call (allow/deny, trust,
   * capabilities), `undefined` = allowed. `args` are the call's arguments as
   * far as they are literal; when all are known, the host also checks the
   * capabilities they need (the fs path, the http host), so a call the host
   * would refuse at run time is refused before anything runs. Without
   * `check`, every listed tool is allowed.
   */
  check?(name: string, args?: readonly StaticArgument[]): ToolDenial | undefined;
  /** Close names for an unknown `name`, best first, only tools the policy allows ("did you mean"), as their authors wrote them. */
  suggest?(name: string): readonly string[];
  /**
   * Whether one map argument with these keys is read as named arguments of
   * the tool (the host's binding rule). Without it, a single map literal is
   * not counted against the tool's arity (the host decides at run time).
   */
  isNamedArgumentMap?(name: string, keys: readonly string[]): boolean;
}
