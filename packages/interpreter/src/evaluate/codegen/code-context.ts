/**
 * Compile-time state of the JavaScript generator. Generated code never
 * contains text from the script: values are referenced as `K[i]` (constants),
 * positions as `P[i]`, variables as `v<slot>` and functions as `f<index>`, so
 * no script can inject code whatever its AST holds.
 */
import type { NodeBase } from '../../ast/index.ts';
import type { UnsetRead } from '../../check/unset-variable-message.ts';
import type { RunLimits } from '../../runtime/index.ts';
import { type EncodedConstant, encodeConstant } from './constant-codec.ts';

/**
 * A number as JavaScript source, or null when its text would not read back
 * as the same number (NaN, ±Infinity, -0) or it is no number at all (a
 * hostile AST). Only digits, `.`, `e`, `+` and `-` can come out.
 */
export function numberSource(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || Object.is(value, -0)) return null;
  return value < 0 ? `(${String(value)})` : String(value);
}

/** The constant table's key for -0. */
const NEGATIVE_ZERO = Symbol('-0');

/**
 * Constants and positions shared by all generated functions of one run, kept
 * as JSON data: constants encoded (`constant-codec.ts`), positions flat.
 */
export class ProgramTables {
  /** The run's limit on list and map sizes: a literal over it compiles to an error. */
  readonly collectionSize: number;
  /** The call-depth limit as source (a literal V8 can fold into the comparison), or the helper holding it. */
  readonly maxDepth: string;
  /** The per-loop iteration limit as source, likewise. */
  readonly maxLoop: string;
  readonly constants: EncodedConstant[] = [];
  /** Line then column of each position. */
  readonly positions: number[] = [];
  private readonly constantIndex = new Map<unknown, number>();
  private readonly builtinIndex = new Map<string, number>();
  private readonly globalIndex = new Map<string, number>();

  constructor(limits: Pick<RunLimits, 'collectionSize' | 'callDepth' | 'loopIterations'>) {
    this.collectionSize = limits.collectionSize;
    this.maxDepth = numberSource(limits.callDepth) ?? 'maxDepth';
    this.maxLoop = numberSource(limits.loopIterations) ?? 'maxLoop';
  }

  /** An expression for a literal constant: a string, or a number `numberSource` refused. */
  constant(value: unknown): string {
    // A Map key treats -0 as 0; the two are different constants.
    const key = Object.is(value, -0) ? NEGATIVE_ZERO : value;
    const at = this.constantIndex.get(key);
    return at === undefined ? this.add(this.constantIndex, key, encodeConstant(value)) : `K[${at}]`;
  }

  /** An expression for the built-in of a (lower-case) name, resolved when the program is instantiated. */
  builtin(name: string): string {
    const at = this.builtinIndex.get(name);
    return at === undefined ? this.add(this.builtinIndex, name, { builtin: name }) : `K[${at}]`;
  }

  /** An expression for the value of the read-only global `name`, resolved when the program is instantiated. */
  global(name: string): string {
    const at = this.globalIndex.get(name);
    return at === undefined ? this.add(this.globalIndex, name, { global: name }) : `K[${at}]`;
  }

  private add<T>(index: Map<T, number>, key: T, encoded: EncodedConstant): string {
    const at = this.constants.length;
    this.constants.push(encoded);
    index.set(key, at);
    return `K[${at}]`;
  }

  /** An expression for a node's position. */
  position(node: NodeBase): string {
    return `P[${this.positionIndex(node)}]`;
  }

  /** The index of a node's position in `P` (a call site travels as this small integer: no load on the call path). */
  positionIndex(node: NodeBase): number {
    this.positions.push(node.line, node.column);
    return this.positions.length / 2 - 1;
  }
}

/** What the bodies of one file know of its names (shared by the file's functions and command blocks). */
export interface FileNames {
  /** Every name the file binds somewhere (`boundNames`). */
  readonly bound: ReadonlySet<string>;
  /** The `SCRIPT_VARIABLE_UNSET` message of a read of `name` (`unsetVariableMessages`). */
  readonly unsetMessage: (name: string, read: UnsetRead) => string;
}

/** What the generator knows about the body (function or command blocks) it is generating. */
export class BodyContext {
  readonly tables: ProgramTables;
  /** Names of the read-only globals (their values are resolved when the program is instantiated). */
  readonly globals: ReadonlySet<string>;
  /** The names of the body's file: a read of one it never binds, and no global, raises `SCRIPT_VARIABLE_UNSET`. */
  readonly names: FileNames;
  /** Generated names of user functions, by script name. */
  readonly functions: ReadonlyMap<string, { readonly id: string; readonly required: number; readonly total: number }>;
  readonly name: string;
  readonly kind: 'function' | 'command';
  readonly hasHandler: boolean;
  private readonly slots = new Map<string, number>();
  /** Loops around the statement being generated (within the handler, counted from the handler). */
  loopDepth = 0;
  /** True while generating the `on error` handler's body. */
  inHandler = false;
  /**
   * While true, the next statement that spends fuel leaves its step to the
   * call or loop iteration it starts, which spends both in one decrement
   * (`generateBlockPaidAhead`); `paidAt` then holds that statement's position.
   */
  payingAhead = false;
  paidAt: string | null = null;
  private temporaries = 0;
  /**
   * Expression temporaries (`e<n>`) of the function being generated, declared
   * at its top; the handler's own are declared inside the handler, so the
   * function's stay plain locals rather than closure variables.
   */
  private scratchNames: string[] = [];
  private scratchCount = 0;

  constructor(
    tables: ProgramTables,
    globals: ReadonlySet<string>,
    names: FileNames,
    functions: BodyContext['functions'],
    name: string,
    kind: 'function' | 'command',
    hasHandler: boolean,
  ) {
    this.tables = tables;
    this.globals = globals;
    this.names = names;
    this.functions = functions;
    this.name = name;
    this.kind = kind;
    this.hasHandler = hasHandler;
  }

  /** The JavaScript name of a script variable. */
  variable(name: string): string {
    let slot = this.slots.get(name);
    if (slot === undefined) {
      slot = this.slots.size;
      this.slots.set(name, slot);
    }
    return `v${slot}`;
  }

  /** Every variable name generated so far. */
  variables(): string[] {
    return [...this.slots.values()].map((slot) => `v${slot}`);
  }

  /** A fresh temporary name (declared by whoever asked for it). */
  temporary(): string {
    return `t${this.temporaries++}`;
  }

  /** A fresh expression temporary, declared by `generateBody` with the other locals. */
  scratch(): string {
    const name = `e${this.scratchCount++}`;
    this.scratchNames.push(name);
    return name;
  }

  /** Starts a new set of expression temporaries; returns the previous set, to pass back to `restoreScratch`. */
  takeScratch(): string[] {
    const taken = this.scratchNames;
    this.scratchNames = [];
    return taken;
  }

  /** The expression temporaries generated since `takeScratch`, and the set before it made current again. */
  restoreScratch(previous: string[]): string[] {
    const current = this.scratchNames;
    this.scratchNames = previous;
    return current;
  }
}
