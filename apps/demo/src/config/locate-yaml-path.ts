/**
 * Finds where a value (or its key) sits in a parsed YAML document, as a line
 * and column, so a validation issue that names a path (`agents.docs.quotas.fuel`)
 * can point at the line. A path that is not in the file (a value that came
 * from a default) points at the nearest part of it that is.
 */
import { isMap, isNode, isPair, isScalar, isSeq, type Document, type LineCounter } from 'yaml';

/** 1-based line and column. */
export interface YamlPosition {
  readonly line: number;
  readonly column: number;
}

/** The position of the value at `path` (of its key when `key` is set), or of its nearest ancestor in the file. */
export function locateYamlPath(document: Document, lineCounter: LineCounter, path: readonly (string | number)[], key = false): YamlPosition {
  let node: unknown = document.contents;
  let offset = isNode(node) ? (node.range?.[0] ?? 0) : 0;
  for (const [index, part] of path.entries()) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(part));
      if (pair === undefined) break;
      const target = key && index === path.length - 1 ? pair.key : (pair.value ?? pair.key);
      if (isNode(target) && target.range !== undefined && target.range !== null) offset = target.range[0];
      node = pair.value;
    } else if (isSeq(node) && typeof part === 'number' && node.items[part] !== undefined) {
      node = node.items[part];
      if (isNode(node) && node.range !== undefined && node.range !== null) offset = node.range[0];
    } else break;
  }
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}
