/**
 * What a plugin factory may be handed as options: plain data, as JSON has
 * it — text, finite numbers, true or false, null, lists and maps. YAML can
 * give more: `!!binary` gives a Buffer, `!!timestamp` a Date, `!!set` a Set,
 * `!!omap` a Map, `.inf` and `.nan` numbers JSON has not, and an alias inside
 * its own anchor (`&a [ *a ]`) a value that holds itself. A plugin written
 * against JSON-shaped options would misread each (a Date is an object, a Set
 * has no items by index), so each is refused, by where it sits in the
 * options and with what to write instead.
 */

/** One value in the options that is not plain data. */
export interface NotPlainData {
  /** Where it is, from the options (`['key', 'sub']`, `[]` for the options themselves). */
  readonly path: readonly (string | number)[];
  /** What it is and what to write instead, as a sentence's end: `binary data (a !!binary value); write …`. */
  readonly message: string;
}

/** Why options are refused: what a plugin can be given, once, after each value's own problem. */
const PLAIN = "a plugin's options are plain data (text, numbers, true or false, null, lists and maps)";

/** The kind of a value that is not plain data, and what to write instead; undefined for plain data (its items aside). */
function kindOf(value: unknown): { kind: string; fix: string } | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') {
    return Number.isFinite(value) ? undefined : { kind: `a number that is not finite (${Number.isNaN(value) ? '.nan' : value > 0 ? '.inf' : '-.inf'})`, fix: "write a finite number, or text in quotes ('.inf') if the plugin takes text there" };
  }
  if (Array.isArray(value)) return undefined;
  if (typeof value === 'object') {
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (prototype === Object.prototype || prototype === null) return undefined;
    if (value instanceof Uint8Array) return { kind: 'binary data (a !!binary value)', fix: 'write it as text in quotes without the !!binary tag (base64, say) if the plugin takes text there' };
    if (value instanceof Date) return { kind: 'a date (a !!timestamp value)', fix: 'write it as text in quotes without the !!timestamp tag, e.g. "2001-12-14"' };
    if (value instanceof Set) return { kind: 'a set (a !!set value)', fix: 'write it as a list without the !!set tag: [a, b]' };
    if (value instanceof Map) return { kind: 'an ordered map (a !!omap value)', fix: 'write it as a map without the !!omap tag ({ a: 1, b: 2 }), or as a list of maps ([{ a: 1 }, { b: 2 }]) where the order matters' };
  }
  const name = typeof value === 'object' ? ((value as { constructor?: { name?: unknown } }).constructor?.name ?? 'object') : typeof value;
  return { kind: `a ${String(name)} value`, fix: 'write it as text, a number, true or false, null, a list or a map' };
}

/**
 * Every value of `options` that is not plain data, in the order written; an
 * empty list for plain data. A value inside one that is refused is not
 * looked at: the outer one's fix replaces it.
 */
export function notPlainData(options: unknown): NotPlainData[] {
  const found: NotPlainData[] = [];
  const walk = (value: unknown, path: (string | number)[], holding: readonly object[]): void => {
    if (typeof value === 'object' && value !== null && holding.includes(value)) {
      found.push({ path, message: `a value that holds itself (an alias *NAME inside its own anchor &NAME); ${PLAIN}: write the data out without the alias` });
      return;
    }
    const kind = kindOf(value);
    if (kind !== undefined) {
      found.push({ path, message: `${kind.kind}; ${PLAIN}: ${kind.fix}` });
      return;
    }
    if (Array.isArray(value)) value.forEach((item, index) => walk(item, [...path, index], [...holding, value]));
    else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) walk(item, [...path, key], [...holding, value]);
  };
  walk(options, [], []);
  return found;
}
