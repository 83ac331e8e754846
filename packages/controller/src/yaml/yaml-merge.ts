/**
 * Merge keys in the YAML files askloop reads (askloop.config.yaml, agent
 * definitions, an `--mcp-config` file): `<<: *base` copies the keys of the
 * map anchored `&base` into the map it stands in, as docker compose files use
 * it. YAML 1.2 dropped the merge key from the core schema, but the files are
 * read as 1.2 (`yes` is text, not true) with merge keys turned back on: a
 * user writing `<<:` means it, and reading it as a key named "<<" only ever
 * produced "unknown key '<<'".
 *
 * How a merge reads (the parser's rules, which these helpers follow so every
 * check names and places a value where the data has it): keys written in the
 * map win over merged ones wherever they stand; `<<: [*a, *b]` takes a key
 * from `a` before `b`; a merged map's own merges count too.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, Scalar, type Document, type Pair, type YAMLMap } from 'yaml';

/** The parser's options for every file askloop reads: YAML 1.2, each key once, merge keys. */
export const YAML_READ_OPTIONS = { uniqueKeys: true, prettyErrors: false, version: '1.2', merge: true } as const;

/** The text of a merge key. */
const MERGE = '<<';

/** Whether `key` merges: a plain `<<` (or a plain key tagged `!!merge`), which the parser reads as a symbol. */
export function isMergeKey(key: unknown): key is Scalar {
  return isScalar(key) && typeof key.value === 'symbol' && key.value.description === MERGE && (key.type === undefined || key.type === Scalar.PLAIN);
}

/**
 * Whether `key` was tagged `!!merge` but does not merge (a quoted key): the
 * parser keeps it as a symbol, which the data then drops without a word.
 */
export function isInertMergeKey(key: unknown): key is Scalar {
  return isScalar(key) && typeof key.value === 'symbol' && !isMergeKey(key);
}

/** What a merge's value names, aliases followed: the map, or each item of the list. */
function mergeSources(document: Document, value: unknown): unknown[] {
  const resolved = isAlias(value) ? value.resolve(document) : value;
  return (isSeq(resolved) ? resolved.items : [resolved]).map((item) => (isAlias(item) ? item.resolve(document) : item));
}

/** The maps a merge's value brings in, in the order their keys count; what is no map is left out. */
export function mergedMaps(document: Document, value: unknown): YAMLMap[] {
  return mergeSources(document, value).filter((source): source is YAMLMap => isMap(source));
}

/**
 * Whether a merge's value brings in only maps (`*base`, `{ a: 1 }`, `[*a, *b]`); anything else stops the parser
 * turning the file into data.
 */
export function mergesOnlyMaps(document: Document, value: unknown): boolean {
  return mergeSources(document, value).every((source) => isMap(source));
}

/**
 * The pair the data takes `key` of `map` from: the map's own, else the first
 * of its merged maps that has it (their merges included). Undefined when the
 * map has no such key.
 */
export function pairOf(document: Document, map: YAMLMap, key: string, seen: Set<YAMLMap> = new Set()): Pair | undefined {
  // An alias inside its own anchor is refused when the file becomes data; here it must only not loop.
  if (seen.has(map)) return undefined;
  seen.add(map);
  const own = map.items.find((item) => isPair(item) && !isMergeKey(item.key) && isScalar(item.key) && String(item.key.value) === key);
  if (own !== undefined) return own;
  for (const item of map.items) {
    if (!isPair(item) || !isMergeKey(item.key)) continue;
    for (const source of mergedMaps(document, item.value)) {
      const found = pairOf(document, source, key, seen);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
