import { mergeSpans, type Span } from './credential-patterns.ts';

/**
 * A secret split across the items of a list: the raw chunks of a streamed
 * reply in which the model echoed a key token by token (`"sk-p"`, `"roj-"`,
 * `"AbC…"`), or a `Bearer …` token, an `api_key=…` (any credential pattern
 * the redactor knows) cut the same way. Each item is scrubbed on its own,
 * and no item holds the whole secret, so every piece survived, and the list
 * held the secret again.
 *
 * Why lanes: the text of a stream is one field of each chunk
 * (`choices.*.delta.content`, `delta.text`, `message.content`, …), so the
 * strings at the same path (array indices left out) of the list's items,
 * joined in order, are the streamed text, and a secret split across chunks
 * is whole in that join. Each join of the items' original strings is scrubbed
 * as one text (the configured keys, then the patterns: what the redactor's
 * `text` replaces, as ranges of the join); the piece of a secret in the item
 * where it starts becomes `[REDACTED]` (after the part a pattern keeps, such
 * as `Bearer `) and its pieces in the items after it become empty, so the join
 * reads as the redacted text does. The join is of the originals, not of the
 * items as each was scrubbed alone: `Authorization: Bear` + `er tok…` reads
 * as a raw key `Bear` in the first item, which hid the `Bearer` the join
 * shows. Where the join read a part of an item as a secret or a whole match,
 * the join decides it (the part a pattern keeps is a header name or
 * `Bearer `, never a secret); what else an item's own scrub found stays
 * scrubbed: a `Bearer …` that starts an item is no credential in the join
 * after `x` (no word boundary), yet it was one in the item, and a lane's
 * strings need not be one text. A lane is keyed by the
 * item's `type` too, so interleaved events of other kinds (Anthropic's
 * `thinking_delta`, a Responses `reasoning` delta) do not break the text's
 * lane.
 *
 * Why not something cheaper: holding back an end of each chunk that starts
 * a key (as the stream redactor does) or cutting any prefix/suffix of a key
 * misses the middle pieces of a key split into three or more, which are
 * neither; and a piece shorter than some minimum would have to be let
 * through. The join costs one concatenation per lane and finds any split;
 * it only scrubs more than needed where two fields' texts joined happen to
 * spell a secret, which is harmless. The lanes are noted while the redactor
 * copies the list (no second walk), for the outermost list of two items or
 * more only (a list inside its items is in its lanes, as `*`), and the lists
 * are scrubbed only when `raw` is read (`setRedactedOnRead`).
 */
/**
 * What the redactor replaces in a text, as ranges of it (sorted, disjoint);
 * `matches`, when given, receives each credential pattern's match whole
 * (the part it keeps, such as `Bearer `, included).
 */
export type SpanFinder = (text: string, matches?: Span[]) => readonly Span[];

/**
 * The strings of one field across a list's items, in order: where each sits
 * (its holder in the scrubbed copy and its key there), read when scrubbed.
 */
export class SecretLane {
  private children: Map<string | number, SecretLane> | undefined;
  private readonly holders: Record<string | number, unknown>[] = [];
  private readonly keys: (string | number)[] = [];
  /** Each string as it was before the item was scrubbed alone. */
  private readonly originals: string[] = [];
  /** Every lane of the list that holds a string, shared by all its lanes, so the list scrubs only those. */
  private readonly lanes: SecretLane[];

  constructor(lanes: SecretLane[]) {
    this.lanes = lanes;
  }

  /** The lane of a field (or of `*`, any index of an inner list) below this one. */
  child(key: string | number): SecretLane {
    this.children ??= new Map();
    let lane = this.children.get(key);
    if (lane === undefined) this.children.set(key, (lane = new SecretLane(this.lanes)));
    return lane;
  }

  /** Notes the string at `holder[key]` (already scrubbed alone), which was `original`. */
  add(holder: Record<string | number, unknown>, key: string | number, original: string): void {
    if (this.holders.length === 0) this.lanes.push(this);
    this.holders.push(holder);
    this.keys.push(key);
    this.originals.push(original);
  }

  /**
   * Cuts the secrets `spans` finds in this lane's join out of its strings:
   * `mark` where one starts, nothing where it goes on. An item a secret of
   * the join overlaps is cut from its original by those and by what its own
   * scrub replaced, unless the join read that part as a whole match (its own
   * scrub misread a cut-off text: `Authorization: Bea` is a raw key `Bea`
   * alone, the word `Bearer` in the join, whose token is cut instead); the
   * others keep their own scrub.
   */
  scrub(spans: SpanFinder, mark: string): void {
    if (this.holders.length < 2) return;
    const joined = this.originals.join('');
    const matches: Span[] = [];
    const found = spans(joined, matches);
    if (found.length === 0) return;
    // What the join read as a secret or a match: a part of an item inside it is decided by the join alone.
    const read = matches.length === 0 ? found : mergeSpans([...found, ...matches]);
    const all: Span[] = [...found];
    let start = 0;
    this.originals.forEach((original, index) => {
      if (this.holders[index]![this.keys[index]!] !== original) {
        for (const [from, to] of spans(original)) {
          if (!read.some(([readFrom, readTo]) => readFrom <= start + from && start + to <= readTo)) all.push([start + from, start + to]);
        }
      }
      start += original.length;
    });
    const merged = all.length === found.length ? found : mergeSpans(all);
    start = 0;
    this.originals.forEach((original, index) => {
      const end = start + original.length;
      if (read.some(([from, to]) => from < end && to > start)) this.holders[index]![this.keys[index]!] = scrubbedPiece(joined, start, end, merged, mark);
      start = end;
    });
  }
}

/**
 * The lanes of one list: each item's fields go to the lane of their path
 * (inner lists' indices as `*`), under the item's `type` when it has one.
 */
export class SplitSecretLanes {
  private readonly lanes: SecretLane[] = [];
  private readonly root = new SecretLane(this.lanes);

  /** The lane an item's own fields start from. */
  forItem(item: unknown): SecretLane {
    const type = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)['type'] : undefined;
    return this.root.child(typeof type === 'string' ? `(${type})` : '');
  }

  /** Scrubs every lane of more than one string; see the file's comment. */
  scrub(spans: SpanFinder, mark: string): void {
    // Lanes are scrubbed in any order: each holds its own strings, and no string is in two lanes.
    for (const lane of this.lanes) lane.scrub(spans, mark);
  }
}

/** `joined[start, end)` with each secret overlapping it cut out: `mark` where the secret starts, nothing where it goes on. */
function scrubbedPiece(joined: string, start: number, end: number, found: readonly Span[], mark: string): string {
  let piece = '';
  let at = start;
  for (const [from, to] of found) {
    if (to <= start || from >= end) continue;
    piece += joined.slice(at, Math.max(from, start));
    if (from >= start) piece += mark;
    at = Math.min(to, end);
  }
  return piece + joined.slice(at, end);
}
