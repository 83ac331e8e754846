/**
 * A program compiled by the host (`generateProgram`), as plain JSON data: the
 * generated JavaScript, its constant table encoded as data and its position
 * table. It crosses into the sandbox as the run's input; the isolate decodes
 * the constants and instantiates it (`instantiateProgram`).
 */
import type { EncodedConstant } from './constant-codec.ts';

/** The generated code of one run with its tables; JSON data only. */
export interface CompiledProgram {
  /**
   * The function bodies and `return command;`: only helper names, slots,
   * `K[i]`, `P[i]` and numbers from `numberSource`, never script text.
   */
  readonly source: string;
  /** The constant table `K`, encoded (`encodeConstant`). */
  readonly constants: readonly EncodedConstant[];
  /** The position table `P`, flat: line then column of each entry. */
  readonly positions: readonly number[];
}
