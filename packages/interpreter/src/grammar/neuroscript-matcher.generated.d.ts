// Types of the matcher that src/grammar/generate-matcher.ts generates from neuroscript.ohm.
import type { Cst } from '../parse/ohm-internals.ts';

/**
 * Matches `text` from `startRule` as Ohm 17 would, building the same concrete syntax tree. Returns the
 * root node and its offset; `null` when the text does not match; `undefined` when it gave up: more than
 * `maxCalls` units of work (rule applications, loop iterations, characters read) were needed, or more
 * than `nestingLimit` nesting levels were open at once.
 */
export declare function matchFast(text: string, startRule: 'Program' | 'Interpolation' | 'Line' | 'Lines' | 'StatementLine', nestingLimit: number, maxCalls: number): { readonly cst: Cst; readonly offset: number } | null | undefined;

/** The grammar text the matcher was generated from, as a sha256 hex digest. */
export declare const GRAMMAR_SHA256: string;
