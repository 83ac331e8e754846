/**
 * Top-level nodes (reference §1.3 `program`, `library_script`,
 * `command_script`, §1.4 `Program`).
 */
import type { NodeBase } from './node-base.ts';
import type { OnEventStatement, Statement } from './statements.ts';

/** One `:: key: value` metadata line (reference §1.2). */
export interface MetadataEntry extends NodeBase {
  readonly type: 'MetadataEntry';
  readonly key: string;
  readonly value: string;
}

/** `func name(needs a, b optional c returns r) means … endfunc`. */
export interface FunctionDefinition extends NodeBase {
  readonly type: 'FunctionDefinition';
  readonly name: string;
  /** `needs` parameters, bound positionally first. */
  readonly required: readonly string[];
  /** `optional` parameters, bound after the required ones (missing → nil). */
  readonly optional: readonly string[];
  /** `returns` names: what the function gives back when it ends without `return` (the evaluator's rule). */
  readonly returns: readonly string[];
  readonly metadata: readonly MetadataEntry[];
  readonly body: readonly Statement[];
}

/** `command … endcommand`. */
export interface CommandBlock extends NodeBase {
  readonly type: 'CommandBlock';
  readonly metadata: readonly MetadataEntry[];
  readonly body: readonly Statement[];
}

/**
 * What a script holds: `library` (functions and event handlers), `command`
 * (command blocks) or `empty` (only metadata, comments, blank lines). The
 * two non-empty kinds never mix.
 */
export type ProgramKind = 'library' | 'command' | 'empty';

/** A parsed script. `line`/`column` are always 1/1. */
export interface Program extends NodeBase {
  readonly type: 'Program';
  readonly kind: ProgramKind;
  /** The file name given to `parse`, if any. */
  readonly fileName?: string;
  /** File header metadata. */
  readonly metadata: readonly MetadataEntry[];
  /** Function definitions in source order. */
  readonly functions: readonly FunctionDefinition[];
  /** Top-level `on event` handlers in source order. */
  readonly eventHandlers: readonly OnEventStatement[];
  /** Command blocks in source order. */
  readonly commands: readonly CommandBlock[];
}
