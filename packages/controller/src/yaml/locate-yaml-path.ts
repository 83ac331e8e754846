/**
 * Finds where a value (or its key) sits in a parsed YAML document, so a
 * validation issue that names a path (`agents.docs.quotas.fuel`) can point at
 * the line. A value that came in by a merge key (`<<: *base`) is found where
 * it is written, in the anchored map, and so is a value under an alias
 * (`quotas: *small`). A path that is not in the file (a value
 * that came from a default) points at the nearest part of it that is.
 */
import { isAlias, isMap, isNode, isSeq, type Document, type LineCounter } from 'yaml';
import { pairOf } from './yaml-merge.ts';

/** 1-based line and column. */
export interface YamlPosition {
  readonly line: number;
  readonly column: number;
}

/**
 * The character offset of the value at `path` (of its key when `key` is set),
 * or of its nearest ancestor in the file; undefined when the document holds
 * no node at all.
 */
export function yamlPathOffset(document: Document, path: readonly (string | number)[], key = false): number | undefined {
  let node: unknown = document.contents;
  let offset = isNode(node) ? (node.range?.[0] ?? undefined) : undefined;
  for (const [index, part] of path.entries()) {
    if (isMap(node)) {
      const pair = pairOf(document, node, String(part));
      if (pair === undefined) break;
      const target = key && index === path.length - 1 ? pair.key : (pair.value ?? pair.key);
      if (isNode(target) && target.range !== undefined && target.range !== null) offset = target.range[0];
      node = isAlias(pair.value) ? pair.value.resolve(document) : pair.value;
    } else if (isSeq(node) && typeof part === 'number' && node.items[part] !== undefined) {
      const item = node.items[part];
      if (isNode(item) && item.range !== undefined && item.range !== null) offset = item.range[0];
      node = isAlias(item) ? item.resolve(document) : item;
    } else break;
  }
  return offset;
}

/** The line and column of the value at `path` (of its key when `key` is set), or of its nearest ancestor in the file. */
export function locateYamlPath(document: Document, lineCounter: LineCounter, path: readonly (string | number)[], key = false): YamlPosition {
  const { line, col } = lineCounter.linePos(yamlPathOffset(document, path, key) ?? 0);
  return { line, column: col };
}
