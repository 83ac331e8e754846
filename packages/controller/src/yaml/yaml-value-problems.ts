/**
 * What the YAML parser reads without a warning but not as written, in a file
 * whose values become plain JavaScript data:
 *
 * - a key that is a list or a map (`? [a, b]`, `{ a: 1 }: x`): an object's
 *   keys are text, so it would become the text `[ a, b ]` (and Node would
 *   print a warning on standard error); the file's keys are names;
 * - a whole number beyond Number.MAX_SAFE_INTEGER (an id, a port typed with
 *   a digit too many): it would become the nearest double,
 *   12345678901234567890 → 12345678901234567000, in silence;
 * - a merge key (`<<`) whose value is not a map, an alias of one or a list of
 *   them (the parser would refuse the whole file, naming no line), and a
 *   quoted key tagged `!!merge`, which merges nothing and would vanish.
 *
 * Each is reported at the key or number, before the file is made into data.
 */
import { isAlias, isMap, isNode, isPair, isScalar, isSeq, type Document, type Scalar } from 'yaml';
import { isInertMergeKey, isMergeKey, mergesOnlyMaps } from './yaml-merge.ts';
import { yamlNodes, type YamlProblem } from './yaml-node-paths.ts';

const INT_TAG = 'tag:yaml.org,2002:int';

/** How to write a key, once it is a list or a map. */
const KEY_FIX = "the file's keys are names: write the name as text (in quotes if it holds [ ] { } or a comma), or put";

/** Every key that is a list or a map, every whole number too large to read exactly and every merge that cannot be read, in the order written. */
export function yamlValueProblems(document: Document): YamlProblem[] {
  const problems: YamlProblem[] = [];
  for (const { node, path, key } of yamlNodes(document)) {
    const offset = node.range?.[0] ?? 0;
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        if (isMergeKey(pair.key) && !mergesOnlyMaps(document, pair.value)) {
          const at = (isNode(pair.value) ? pair.value.range?.[0] : pair.key.range?.[0]) ?? offset;
          problems.push({ offset: at, path, message: 'a merge key (<<) takes a map, an alias of one (<<: *base) or a list of them (<<: [*base, *more]): their keys are copied into this map' });
        } else if (isInertMergeKey(pair.key)) {
          problems.push({ offset: pair.key.range?.[0] ?? offset, path, message: 'a quoted key tagged !!merge merges nothing: write the merge key as << (unquoted, no tag)' });
        }
      }
    }
    if (key) {
      // An alias of a list is a list as a key too.
      const target = isAlias(node) ? node.resolve(document) : node;
      if (isSeq(target)) problems.push({ offset, path, message: `a key that is a list; ${KEY_FIX} the list after a key (name: [a, b])` });
      else if (isMap(target)) problems.push({ offset, path, message: `a key that is a map; ${KEY_FIX} the map after a key (name: { a: 1 })` });
    }
    if (isScalar(node) && unsafeInteger(document, node)) {
      const written = node.source ?? String(node.value);
      problems.push({
        offset,
        path,
        message: `${key ? 'the key ' : ''}${written} is too large a whole number to be read exactly (whole numbers are exact up to ${Number.MAX_SAFE_INTEGER}, either side of zero): it would be read as ${String(node.value)}; quote it ("${written}") if it is an identifier, or use a smaller number`,
      });
    }
  }
  return problems;
}

/**
 * Whether the scalar is written as a whole number (the schema's !!int
 * notation, or tagged !!int) beyond the safe range. A number written as a
 * float (1.5e300, 9007199254740993.0) is a float, read as floats are.
 */
function unsafeInteger(document: Document, scalar: Scalar): boolean {
  const { value } = scalar;
  if (typeof value !== 'number' || !Number.isInteger(value) || Number.isSafeInteger(value)) return false;
  if (scalar.tag !== undefined) return scalar.tag === INT_TAG;
  const source = scalar.source;
  return source !== undefined && document.schema.tags.some((tag) => tag.tag === INT_TAG && tag.collection === undefined && tag.test?.test(source) === true);
}
