/**
 * Every node of a parsed YAML document, keys too, with the path a file's
 * error names it by (`plugins[0].options.id`): for the checks that look at how
 * a value was written (its tag, its notation, a key that is no name) rather
 * than at what it became. Aliases are not followed: the node an alias names
 * is visited where its anchor is written. A map written as a merge key's
 * value (`<<: { a: 1 }`, or in its list) has its keys where the merge puts
 * them: in the map holding the merge key.
 */
import { isMap, isNode, isPair, isScalar, isSeq, type Document, type Node } from 'yaml';
import { isMergeKey } from './yaml-merge.ts';

/** One node and where it is. */
export interface YamlNodeAt {
  readonly node: Node;
  /** The path of the value; for a key, of the map holding it. */
  readonly path: readonly (string | number)[];
  /** Whether the node is a map's key. */
  readonly key: boolean;
}

/** A problem of the file at a place in its text, named by the path of the value (none when it is of no value: a directive). */
export interface YamlProblem {
  /** Where in the text, as a character offset. */
  readonly offset: number;
  readonly path: readonly (string | number)[] | undefined;
  /** What is wrong and what to write instead, after the path. */
  readonly message: string;
}

/**
 * The document's nodes in the order written, each with its path. The value
 * of a key that is no text (a list, a map) is not visited: the key is the
 * problem there, and the value has no name to be reported by.
 */
export function yamlNodes(document: Document): YamlNodeAt[] {
  const found: YamlNodeAt[] = [];
  const walk = (node: unknown, path: readonly (string | number)[]): void => {
    if (!isNode(node)) return;
    found.push({ node, path, key: false });
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        if (isNode(pair.key)) found.push({ node: pair.key, path, key: true });
        if (isMergeKey(pair.key)) walkMerged(pair.value, path);
        // A key as the file's other checks name it (locateYamlPath, toJS): its value as text.
        else if (isScalar(pair.key)) walk(pair.value, [...path, String(pair.key.value)]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => walk(item, [...path, index]));
    }
  };
  const walkMerged = (value: unknown, path: readonly (string | number)[]): void => {
    if (!isSeq(value)) return walk(value, path);
    found.push({ node: value, path, key: false });
    for (const item of value.items) walk(item, path);
  };
  walk(document.contents, []);
  return found;
}
