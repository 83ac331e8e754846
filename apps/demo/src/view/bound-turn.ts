/**
 * What the viewer sends of one turn: the record, with any text past a size
 * cut and marked, and any long list cut to its first items, so a single turn
 * (a 512 KiB OUTPUT, a tool result of megabytes, thousands of tool calls)
 * cannot make an answer unbounded. `cut` lists what was cut, for the page to
 * say so and offer the whole turn (`/api/sessions/SID/turns/N`, or
 * `askloop show SID --turn N --full`). Records are redacted before they are
 * cut: a cut through a key would leave a start of it no redaction recognises.
 */
import type { TurnRecord } from '@askloop/controller';
import { formatCount } from '../progress/format-values.ts';

/** One field {@link boundTurn} cut. */
export interface CutField {
  /** Where, as keys joined by dots: `output`, `reply.text`, `toolCalls.3.result`, `toolCalls`. */
  readonly path: string;
  /** `text`: a string, cut; `json`: a tool's arguments or result, given as the start of its JSON text; `list`: a list, cut to its first items. */
  readonly kind: 'text' | 'json' | 'list';
  /** How long it was: characters (`text`, `json`) or items (`list`). */
  readonly size: number;
  /** How much of it is sent: characters or items. */
  readonly kept: number;
}

/** A turn as the viewer sends it: `cut` is there only when something was. */
export type BoundedTurn = TurnRecord & { readonly cut?: readonly CutField[] };

/** How much of a turn {@link boundTurn} keeps. */
export interface TurnLimits {
  /** The most characters of one text (or of a tool's arguments or result as JSON). */
  readonly fieldChars: number;
  /** The characters of text a turn keeps in all; past them, each text keeps `previewChars`. */
  readonly turnChars: number;
  /** What a text keeps once the turn's characters are spent. */
  readonly previewChars: number;
  /** The most items of one list (tool calls, emits, whispers, diagnostics). */
  readonly listItems: number;
}

/**
 * The viewer's limits: a text of 16 Ki characters shows a whole envelope or
 * system text (about 8 KiB in practice) and a screenful of anything longer;
 * a turn then sends about 300 KiB at most.
 */
export const TURN_LIMITS: TurnLimits = { fieldChars: 16 * 1024, turnChars: 192 * 1024, previewChars: 256, listItems: 200 };

/** A tool's arguments and results, and an `ask`'s result: any JSON, cut as the text of its JSON (its shape may be anything). */
const JSON_SLOT = /^(?:(?:toolCalls|earlierUnfinished)\.\d+\.(?:args|result)|asks\.\d+\.result)$/;

/** The mark that ends a cut text, saying how much there was. */
export function cutMark(size: number): string {
  return `\n… [cut: ${formatCount(size)} characters in all]`;
}

/** The first `keep` characters of `text`, not splitting a surrogate pair. */
function head(text: string, keep: number): string {
  const code = text.charCodeAt(keep - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? keep - 1 : keep);
}

/** `turn` with its texts and lists cut to `limits` (the record itself unchanged), and `cut` saying what was cut. */
export function boundTurn(turn: TurnRecord, limits: TurnLimits = TURN_LIMITS): BoundedTurn {
  const cuts: CutField[] = [];
  let left = limits.turnChars;
  const text = (value: string, path: string, kind: 'text' | 'json'): string => {
    const keep = Math.max(limits.previewChars, Math.min(limits.fieldChars, left));
    left -= Math.min(value.length, keep);
    if (value.length <= keep) return value;
    cuts.push({ path, kind, size: value.length, kept: keep });
    return head(value, keep) + cutMark(value.length);
  };
  const walk = (value: unknown, path: string): unknown => {
    if (typeof value === 'string') return text(value, path, 'text');
    if (value === null || typeof value !== 'object') return value;
    if (JSON_SLOT.test(path)) {
      const json = JSON.stringify(value);
      if (json.length > Math.max(limits.previewChars, Math.min(limits.fieldChars, left))) return text(json, path, 'json');
      left -= json.length;
      return value;
    }
    if (Array.isArray(value)) {
      if (value.length > limits.listItems) cuts.push({ path, kind: 'list', size: value.length, kept: limits.listItems });
      return value.slice(0, limits.listItems).map((item, index) => walk(item, `${path}.${index}`));
    }
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item, path === '' ? key : `${path}.${key}`)]));
  };
  const bounded = walk(turn, '') as TurnRecord;
  return cuts.length === 0 ? bounded : { ...bounded, cut: cuts };
}
