/**
 * A tool pack is a plugin (rollup style): a factory returns `{ name, tools }`.
 * The registry uses the pack's name when it wraps a tool's failure, so the
 * loop can say which tool and which plugin failed without knowing either.
 */
import { ToolError } from '../errors/tool-error.ts';
import type { ToolDefinition } from '../spec/tool-spec.ts';

/** A named group of tool definitions. */
export interface ToolPack {
  readonly name: string;
  readonly tools: readonly ToolDefinition[];
}

/** A function that builds a pack, usually from options (`createStringTools()`, `createMemoryTools({ store })`). */
export type ToolPackFactory = () => ToolPack;

/** Builds a frozen {@link ToolPack}. Throws `TOOL_SPEC_INVALID` for an empty or malformed name. */
export function defineToolPack(name: string, tools: readonly ToolDefinition[]): ToolPack {
  if (!/^[a-z][a-z0-9._-]*$/i.test(name)) throw new ToolError('TOOL_SPEC_INVALID', `tool pack name '${name}' must be letters, digits, '.', '_' or '-'`);
  return Object.freeze({ name, tools: Object.freeze([...tools]) });
}
