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
  /**
   * True when every tool of the pack computes its result from its arguments
   * alone (no store, file, network, clock or policy read): a run continuing a
   * cut-short one computes the same again, so the host never journals their
   * results (see the tool host's `journalReads`).
   */
  readonly pure?: boolean;
}

/** Options of {@link defineToolPack}. */
export interface ToolPackOptions {
  /** See {@link ToolPack.pure}. */
  readonly pure?: boolean;
}

/** A function that builds a pack, usually from options (`createStringTools()`, `createMemoryTools({ store })`). */
export type ToolPackFactory = () => ToolPack;

/** Builds a frozen {@link ToolPack}. Throws `TOOL_SPEC_INVALID` for an empty or malformed name. */
export function defineToolPack(name: string, tools: readonly ToolDefinition[], options: ToolPackOptions = {}): ToolPack {
  if (!/^[a-z][a-z0-9._-]*$/i.test(name)) throw new ToolError('TOOL_SPEC_INVALID', `tool pack name '${name}' must be letters, digits, '.', '_' or '-'`);
  if (!Array.isArray(tools)) throw new ToolError('TOOL_SPEC_INVALID', `tool pack '${name}': tools must be a list of tools built with defineTool(spec, handler)`);
  // Tool names are case-insensitive (a program may call tool.q.a or tool.q.A): two that differ only in case are one.
  const seen = new Map<string, string>();
  for (const tool of tools) {
    // The name as its author wrote it (spec.name is folded to lower case).
    const spec = (tool as { spec?: { name?: unknown; displayName?: unknown } } | null)?.spec;
    const toolName = typeof spec?.displayName === 'string' ? spec.displayName : spec?.name;
    if (typeof toolName !== 'string') continue;
    const earlier = seen.get(toolName.toLowerCase());
    if (earlier !== undefined) {
      throw new ToolError('TOOL_SPEC_INVALID', `tool pack '${name}' has two tools named '${earlier}'${earlier === toolName ? '' : ` and '${toolName}'`}; tool names are case-insensitive, so give each its own name`);
    }
    seen.set(toolName.toLowerCase(), toolName);
  }
  return Object.freeze({ name, tools: Object.freeze([...tools]), ...(options.pure === true ? { pure: true } : {}) });
}
