/**
 * What every AST node carries: its kind and where it starts in the source.
 * Positions are 1-based (line 1, column 1 is the first character), counted in
 * UTF-16 code units of the cleaned source (reference §1.1: BOM stripped, CRLF
 * and CR turned into LF, other control characters dropped). Line numbers are
 * those of the original text; columns too, unless a dropped control character
 * precedes the node on its line.
 */
export interface NodeBase {
  readonly line: number;
  readonly column: number;
}
