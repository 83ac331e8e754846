/**
 * Where a JSON text stops parsing, for a one-line error with a place: V8's
 * message for `JSON.parse` quotes the text around the fault (line breaks and
 * all) and gives no line or column. JSON is YAML 1.2, whose parser says where.
 */
import { LineCounter, parseDocument } from 'yaml';

/** The fault of `text` as one line, and its 1-based line and column when the YAML parser finds one. */
export function jsonErrorPlace(text: string, error: unknown): { readonly message: string; readonly line?: number; readonly column?: number } {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\r?\n\s*/g, ' ');
  const lineCounter = new LineCounter();
  const fault = parseDocument(text, { lineCounter, version: '1.2' }).errors[0];
  if (fault === undefined) return { message };
  const { line, col } = lineCounter.linePos(fault.pos[0]);
  return { message, line, column: col };
}
