/**
 * A secret split across the items of a list: the raw chunks of a streamed
 * reply in which the model echoed a key token by token (`"sk-p"`, `"roj-"`,
 * `"AbC…"`). Each item is scrubbed on its own, and no item holds the whole
 * key, so every piece survived, and the list held the key again.
 *
 * Why lanes: the text of a stream is one field of each chunk
 * (`choices.*.delta.content`, `delta.text`, `message.content`, …), so the
 * strings at the same path (array indices left out) of the list's items,
 * joined in order, are the streamed text, and a key split across chunks is
 * whole in that join. Each join is searched for the configured keys; the
 * piece of a key in the item where it starts becomes `[REDACTED]` and its
 * pieces in the items after it become empty, so the join reads as the
 * redacted text does. A lane is keyed by the item's `type` too, so
 * interleaved events of other kinds (Anthropic's `thinking_delta`, a
 * Responses `reasoning` delta) do not break the text's lane.
 *
 * Why not something cheaper: holding back an end of each chunk that starts
 * a key (as the stream redactor does) or cutting any prefix/suffix of a key
 * misses the middle pieces of a key split into three or more, which are
 * neither; and a piece shorter than some minimum would have to be let
 * through. The join costs one concatenation per lane and finds any split;
 * it only scrubs more than needed where two fields' texts joined happen to
 * spell a key, which is harmless. The lanes are noted while the redactor
 * copies the list (no second walk), for the outermost list of two items or
 * more only (a list inside its items is in its lanes, as `*`), and the lists
 * are scrubbed only when `raw` is read (`setRedactedOnRead`).
 */
/**
 * The strings of one field across a list's items, in order: where each sits
 * (its holder in the scrubbed copy and its key there), read when scrubbed.
 */
export class SecretLane {
  private children: Map<string | number, SecretLane> | undefined;
  private readonly holders: Record<string | number, unknown>[] = [];
  private readonly keys: (string | number)[] = [];
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

  /** Notes the string at `holder[key]`. */
  add(holder: Record<string | number, unknown>, key: string | number): void {
    if (this.holders.length === 0) this.lanes.push(this);
    this.holders.push(holder);
    this.keys.push(key);
  }

  /** Cuts the secrets `spans` finds in this lane's join out of its strings: `mark` where one starts, nothing where it goes on. */
  scrub(spans: (text: string) => readonly (readonly [number, number])[], mark: string): void {
    if (this.holders.length < 2) return;
    const values = this.holders.map((holder, index) => holder[this.keys[index]!] as string);
    const joined = values.join('');
    const found = spans(joined);
    if (found.length === 0) return;
    let start = 0;
    values.forEach((value, index) => {
      const end = start + value.length;
      if (found.some(([from, to]) => from < end && to > start)) this.holders[index]![this.keys[index]!] = scrubbedPiece(joined, start, end, found, mark);
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
  scrub(spans: (text: string) => readonly (readonly [number, number])[], mark: string): void {
    // Lanes are scrubbed in any order: each holds its own strings, and no string is in two lanes.
    for (const lane of this.lanes) lane.scrub(spans, mark);
  }
}

/** `joined[start, end)` with each secret overlapping it cut out: `mark` where the secret starts, nothing where it goes on. */
function scrubbedPiece(joined: string, start: number, end: number, found: readonly (readonly [number, number])[], mark: string): string {
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
