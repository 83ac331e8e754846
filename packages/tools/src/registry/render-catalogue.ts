/**
 * The compact tool catalogue for the model's prompt: one line per tool with
 * its name, arguments, return type and the first line of its description.
 * Only tools the policy allows are passed in, so the model sees only what it
 * may call.
 */
import { signatureText } from '../spec/bind-arguments.ts';
import type { ToolSpec } from '../spec/tool-spec.ts';

/** Options of {@link renderCatalogue}. */
export interface CatalogueOptions {
  /** First line of the catalogue; `''` for none. */
  readonly heading?: string;
}

const DEFAULT_HEADING = 'Tools you may call (positional arguments, or one map of named arguments; `?` marks optional):';

/**
 * One catalogue line: `tool.str.Length(input_string: string) -> int - Number of characters.`
 * Plain ASCII punctuation on purpose: one character above U+00FF makes V8 store the whole system
 * text (and every request body built from it) two bytes a character, and thousands of sessions
 * in flight each hold a copy while their model answers.
 */
export function renderCatalogueLine(spec: ToolSpec): string {
  const summary = spec.description.split('\n')[0]?.trim() ?? '';
  const marks = spec.effect === 'read' ? '' : ` [${spec.effect}]`;
  return `${spec.displayName}(${signatureText(spec)}) -> ${spec.returns}${marks}${summary === '' ? '' : ` - ${summary}`}`;
}

/** The catalogue text for `specs` (already filtered by policy), sorted by name. */
export function renderCatalogue(specs: readonly ToolSpec[], options: CatalogueOptions = {}): string {
  const heading = options.heading ?? DEFAULT_HEADING;
  const lines = [...specs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map(renderCatalogueLine);
  if (lines.length === 0) lines.push('(no tools are allowed)');
  return [...(heading === '' ? [] : [heading]), ...lines].join('\n');
}
