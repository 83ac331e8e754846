/**
 * A tool pack is a plugin (rollup style): a factory returns `{ name, tools }`.
 * The registry uses the pack's name when it wraps a tool's failure, so the
 * loop can say which tool and which plugin failed without knowing either.
 */
import { ToolError } from '../errors/tool-error.ts';
import { checkPackOptions, flag } from '../packs/pack-options.ts';
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

/**
 * What is wrong with `tool` as a tool of a pack, or undefined: it must be what `defineTool(spec, handler)` returns (a
 * spec with its names and arguments, and a handler function). Else the registry failed later on a raw `TypeError`.
 */
export function toolShapeProblem(tool: unknown): string | undefined {
  const spec = (tool as { spec?: unknown } | null)?.spec as { name?: unknown; displayName?: unknown; arguments?: unknown } | undefined;
  const valid = typeof tool === 'object' && tool !== null && typeof spec === 'object' && spec !== null && typeof spec.name === 'string' && typeof spec.displayName === 'string' && Array.isArray(spec.arguments) && typeof (tool as { handler?: unknown }).handler === 'function';
  return valid ? undefined : `${JSON.stringify(tool)?.slice(0, 80) ?? String(tool)} is not a tool: build each with defineTool(spec, handler)`;
}

/**
 * What is wrong with `pack` as a pack to register, or undefined: it must be `{ name, tools }` as
 * {@link defineToolPack} (or a pack factory) returns, each tool from `defineTool`.
 */
export function toolPackShapeProblem(pack: unknown): string | undefined {
  if (typeof pack !== 'object' || pack === null || typeof (pack as { name?: unknown }).name !== 'string') return `${JSON.stringify(pack)?.slice(0, 80) ?? String(pack)} is not a tool pack: build it with defineToolPack(name, tools), or pass a factory that returns one`;
  const { name, tools } = pack as { name: string; tools?: unknown };
  if (!Array.isArray(tools)) return `tool pack '${name}': tools must be a list of tools built with defineTool(spec, handler)`;
  for (const [index, tool] of tools.entries()) {
    const problem = toolShapeProblem(tool);
    if (problem !== undefined) return `tool pack '${name}', tool ${index + 1}: ${problem}`;
  }
  return undefined;
}

/**
 * What is wrong with a pack declared pure, or undefined: each of its tools must only read (`effect` `read`, the
 * default). The host journals none of a pure pack's calls; a pack that writes has state its reads depend on, and a
 * continuing run would read afresh what its own earlier write changed. It was accepted silently.
 */
export function purePackProblem(pack: { readonly name: string; readonly tools: readonly ToolDefinition[]; readonly pure?: boolean }): string | undefined {
  if (pack.pure !== true) return undefined;
  const acting = pack.tools.find((tool) => tool.spec.effect !== 'read');
  if (acting === undefined) return undefined;
  const tool = acting.spec.displayName;
  return `tool pack '${pack.name}' is declared pure, but its tool ${tool} has effect '${acting.spec.effect}': a pure pack's results come from their arguments alone, so the host journals none of its calls; drop pure: true from the pack, or move ${tool} to a pack that is not pure`;
}

/**
 * Builds a frozen {@link ToolPack}. Throws `TOOL_SPEC_INVALID` for an empty or malformed name, options that are not
 * {@link ToolPackOptions} (an unknown key, with the one meant: a misspelt `pur: true` made a pack silently not pure;
 * a `pure` that is not true or false), a tool not built with `defineTool`, or a pure pack with a tool that writes
 * ({@link purePackProblem}).
 */
export function defineToolPack(name: string, tools: readonly ToolDefinition[], options: ToolPackOptions = {}): ToolPack {
  if (!/^[a-z][a-z0-9._-]*$/i.test(name)) throw new ToolError('TOOL_SPEC_INVALID', `tool pack name '${name}' must be letters, digits, '.', '_' or '-'`);
  checkPackOptions('defineToolPack', options, { pure: flag }, `defineToolPack('${name}', …)`);
  const problem = toolPackShapeProblem({ name, tools });
  if (problem !== undefined) throw new ToolError('TOOL_SPEC_INVALID', problem);
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
  const impure = purePackProblem({ name, tools, pure: options.pure === true });
  if (impure !== undefined) throw new ToolError('TOOL_SPEC_INVALID', impure, { pack: name });
  return Object.freeze({ name, tools: Object.freeze([...tools]), ...(options.pure === true ? { pure: true } : {}) });
}
