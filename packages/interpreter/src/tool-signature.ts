/**
 * The small interface through which the interpreter sees tools. The
 * interpreter defines it; `@askloop/tools` implements it (its full tool specs
 * carry more: capabilities, effect, timeouts…). The static checker uses it to
 * prove every tool reference exists and is called with an accepted number of
 * arguments; the run-time bridge uses it to call the tool in the host.
 */

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
  readonly arguments: readonly ToolArgumentSignature[];
  /** When true, any number of extra arguments past the declared ones is accepted. */
  readonly variadic?: boolean;
}

/** Why a host's policy refuses a tool: a stable code (e.g. `POLICY_CAPABILITY_MISSING`) and a message that names the fix. */
export interface ToolDenial {
  readonly code: string;
  readonly message: string;
}

/** Lookup of tools by name; lookups are case-insensitive and accept the name with or without the `tool.` prefix. */
export interface ToolCatalog {
  get(name: string): ToolSignature | undefined;
  /** Every canonical name, sorted. Used in "did you mean" hints. */
  names(): readonly string[];
  /**
   * The host's full policy decision for calling the tool at all (trust,
   * capabilities, …), when the catalogue knows it; `undefined` = allowed.
   * The static check consults it, so the policy that runs a program is the
   * one that proved it before it ran.
   */
  check?(name: string): ToolDenial | undefined;
}
