/**
 * The characters no store keeps in a name (a key, a session id), in the
 * words the tools and the tool host give back: U+0000 (`nul-character.ts`)
 * and a lone surrogate (`lone-surrogate.ts`). One check for every caller
 * that refuses such a name before a store sees it, so each says the same.
 */
import { loneSurrogateProblem } from './lone-surrogate.ts';
import { nulProblem } from './nul-character.ts';

/**
 * Why `text` cannot be a stored name and how to fix it, in words that follow
 * the argument's name, or undefined when it can be one. `noun` names it in
 * the fix: "holds the NUL character (U+0000) at index 3, which no store
 * keeps; use a key without the NUL character".
 */
export function storedNameProblem(text: string, noun: string): string | undefined {
  const nul = nulProblem(text);
  if (nul !== undefined) return `${nul}; use a ${noun} without the NUL character`;
  const lone = loneSurrogateProblem(text);
  if (lone !== undefined) return `${lone}; use a ${noun} that is well-formed text`;
  return undefined;
}
