/**
 * A wildcard pattern compiled to a small NFA and matched by simulating the
 * set of live states (Thompson's construction). Matching costs
 * O(subject length × pattern length) for every pattern, where a backtracking
 * RegExp for `a/**‍/x/**‍/x/**` takes exponential time on a long path (a grant
 * with several `**` once blocked the host 17 s on a 4 KB path).
 */

/** One step of a pattern: a literal character, or a run of characters (`*` / `**`), or an optional group. */
export type WildcardPiece =
  | { readonly kind: 'char'; readonly char: string }
  | { readonly kind: 'star'; readonly crossesSeparator: boolean }
  | { readonly kind: 'optional'; readonly pieces: readonly WildcardPiece[] };

/** A compiled pattern; `test` has the RegExp method's name so call sites read the same. */
export interface WildcardMatcher {
  /** True when the whole `subject` matches. */
  test(subject: string): boolean;
}

const ANY = -1;
const NOT_SEPARATOR = -2;

interface Automaton {
  /** Per state: the epsilon successors. */
  readonly epsilon: number[][];
  /** Per state: the character it consumes (a UTF-16 unit, ANY or NOT_SEPARATOR) and its successor, or none. */
  readonly consumes: number[];
  readonly next: number[];
}

function addState(automaton: Automaton): number {
  automaton.epsilon.push([]);
  automaton.consumes.push(0);
  automaton.next.push(-1);
  return automaton.epsilon.length - 1;
}

/** Adds the pieces after state `from`; returns the state reached at their end. */
function build(automaton: Automaton, pieces: readonly WildcardPiece[], from: number): number {
  let current = from;
  for (const piece of pieces) {
    if (piece.kind === 'char') {
      const target = addState(automaton);
      // `current` is always fresh here, so it has no consuming edge yet.
      automaton.consumes[current] = piece.char.charCodeAt(0);
      automaton.next[current] = target;
      current = target;
    } else if (piece.kind === 'star') {
      const loop = addState(automaton);
      const after = addState(automaton);
      (automaton.epsilon[current] as number[]).push(loop);
      (automaton.epsilon[loop] as number[]).push(after);
      automaton.consumes[loop] = piece.crossesSeparator ? ANY : NOT_SEPARATOR;
      automaton.next[loop] = loop;
      current = after;
    } else {
      const start = addState(automaton);
      (automaton.epsilon[current] as number[]).push(start);
      const end = build(automaton, piece.pieces, start);
      const after = addState(automaton);
      (automaton.epsilon[start] as number[]).push(after);
      (automaton.epsilon[end] as number[]).push(after);
      current = after;
    }
  }
  return current;
}

/**
 * Compiles `pieces` (matched against the whole subject). `separator` is the
 * one character a non-crossing `*` never consumes. With `ignoreCase` the
 * subject is lower-cased before matching, so the pieces must already be.
 */
export function compileWildcard(pieces: readonly WildcardPiece[], separator: string, ignoreCase = false): WildcardMatcher {
  const automaton: Automaton = { epsilon: [], consumes: [], next: [] };
  const start = addState(automaton);
  const accept = build(automaton, pieces, start);
  const count = automaton.epsilon.length;
  const separatorCode = separator.charCodeAt(0);

  return Object.freeze({
    test(subject: string): boolean {
      const text = ignoreCase ? subject.toLowerCase() : subject;
      let live = new Uint8Array(count);
      let following = new Uint8Array(count);
      const stack: number[] = [];
      const close = (set: Uint8Array, state: number): void => {
        if (set[state] === 1) return;
        set[state] = 1;
        stack.push(state);
        while (stack.length > 0) {
          const each = stack.pop() as number;
          for (const target of automaton.epsilon[each] as number[]) {
            if (set[target] === 0) {
              set[target] = 1;
              stack.push(target);
            }
          }
        }
      };
      close(live, start);
      for (let index = 0; index < text.length; index += 1) {
        const code = text.charCodeAt(index);
        following.fill(0);
        let any = false;
        for (let state = 0; state < count; state += 1) {
          if (live[state] === 0 || automaton.next[state] === -1) continue;
          const wanted = automaton.consumes[state] as number;
          if (wanted === code || wanted === ANY || (wanted === NOT_SEPARATOR && code !== separatorCode)) {
            close(following, automaton.next[state] as number);
            any = true;
          }
        }
        if (!any) return false;
        [live, following] = [following, live];
      }
      return live[accept] === 1;
    },
  });
}

/**
 * The pieces of a segment's text: `**` (or more) crosses separators, a single
 * `*` stays inside one segment, every other character is literal.
 */
export function segmentPieces(text: string): WildcardPiece[] {
  const pieces: WildcardPiece[] = [];
  for (let index = 0; index < text.length; index += 1) {
    if (text[index] === '*') {
      let end = index;
      while (text[end + 1] === '*') end += 1;
      pieces.push({ kind: 'star', crossesSeparator: end > index });
      index = end;
    } else {
      pieces.push({ kind: 'char', char: text[index] as string });
    }
  }
  return pieces;
}
