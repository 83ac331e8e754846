/**
 * The registry: every tool of every pack, looked up by canonical name
 * (reference §2.1). It implements the interpreter's `ToolCatalog`, so the
 * static checker sees exactly the tools the run-time bridge can call.
 */
import type { ToolCatalog } from '../spec/tool-signature.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { Policy } from '../policy/policy.ts';
import { canonicalToolName } from '../spec/canonical-name.ts';
import type { ToolDefinition, ToolSpec } from '../spec/tool-spec.ts';
import { renderCatalogue, type CatalogueOptions } from './render-catalogue.ts';
import { suggestNames } from './suggest-names.ts';
import { purePackProblem, toolPackShapeProblem, type ToolPack, type ToolPackFactory } from './tool-pack.ts';

/** A registered tool with the pack that provides it. */
export interface RegisteredTool {
  readonly definition: ToolDefinition;
  readonly pack: string;
  /** Its pack is {@link ToolPack.pure}. */
  readonly pure?: boolean;
}

/** The tool registry. `get` and `names` make it a `ToolCatalog`. */
export interface ToolRegistry extends ToolCatalog {
  /** The spec of a tool (case-insensitive, with or without the `tool.` prefix), or undefined. */
  get(name: string): ToolSpec | undefined;
  /** Every canonical name, sorted. */
  names(): readonly string[];
  /** The tool and its pack, or undefined. */
  lookup(name: string): RegisteredTool | undefined;
  /** The tool and its pack; throws `TOOL_NOT_FOUND` with "did you mean" hints. */
  require(name: string): RegisteredTool;
  /** Every spec, sorted by canonical name. */
  specs(): readonly ToolSpec[];
  /** Pack names in registration order. */
  packs(): readonly string[];
  /** The compact prompt catalogue of the tools `policy` allows (names, arguments, one-line descriptions). */
  catalogue(policy: Policy, options?: CatalogueOptions): string;
}

/** How a wrong argument is named: its kind, and a number or a short text as given. */
function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  if (typeof value === 'string') return `string ${JSON.stringify(value.slice(0, 40))}`;
  return typeof value === 'function' ? 'a function' : 'an object';
}

/** Builds a registry from packs (or pack factories). Throws `TOOL_DUPLICATE` for a repeated pack or tool name, `TOOL_SPEC_INVALID` for a pack that is none or a pure pack with a tool that writes. */
export function createToolRegistry(packs: readonly (ToolPack | ToolPackFactory)[]): ToolRegistry {
  // One pack given alone, not in a list, failed on a JavaScript error ("packs is not iterable").
  if (!Array.isArray(packs)) {
    const alone = typeof packs === 'function' || toolPackShapeProblem(packs) === undefined;
    throw new ToolError('TOOL_SPEC_INVALID', `createToolRegistry() takes a list of tool packs (or pack factories), got ${kindOf(packs)}${alone ? '; put the one pack in a list: createToolRegistry([pack])' : ''}`);
  }
  const tools = new Map<string, RegisteredTool>();
  const packNames: string[] = [];
  for (const entry of packs) {
    const pack = typeof entry === 'function' ? entry() : entry;
    // A pack made by hand ({ name, tools }) is not checked by defineToolPack: a bad one failed below on a raw TypeError.
    const problem = toolPackShapeProblem(pack) ?? purePackProblem(pack);
    if (problem !== undefined) throw new ToolError('TOOL_SPEC_INVALID', problem);
    if (packNames.includes(pack.name)) throw new ToolError('TOOL_DUPLICATE', `tool pack '${pack.name}' is registered twice`, { pack: pack.name });
    packNames.push(pack.name);
    for (const definition of pack.tools) {
      const existing = tools.get(definition.spec.name);
      if (existing !== undefined) {
        throw new ToolError(
          'TOOL_DUPLICATE',
          `${definition.spec.displayName} from pack '${pack.name}' is already registered by pack '${existing.pack}'`,
          { tool: definition.spec.displayName, pack: pack.name },
        );
      }
      tools.set(definition.spec.name, Object.freeze({ definition, pack: pack.name, ...(pack.pure === true ? { pure: true } : {}) }));
    }
  }
  const sortedNames = Object.freeze([...tools.keys()].sort());
  const sortedSpecs = Object.freeze(sortedNames.map((name) => (tools.get(name) as RegisteredTool).definition.spec));
  const registry: ToolRegistry = {
    get: (name) => tools.get(canonicalToolName(name))?.definition.spec,
    names: () => sortedNames,
    lookup: (name) => tools.get(canonicalToolName(name)),
    require(name) {
      const canonical = canonicalToolName(name);
      const found = tools.get(canonical);
      if (found !== undefined) return found;
      // In the spelling of the caller and of the tools' authors, as every other message names tools.
      const hints = suggestNames(canonical, sortedNames).map((hint) => tools.get(hint)?.definition.spec.displayName ?? hint);
      throw new ToolError(
        'TOOL_NOT_FOUND',
        `tool '${name}' not found${hints.length > 0 ? `; did you mean ${hints.join(', ')}?` : ''}`,
        { tool: name },
      );
    },
    specs: () => sortedSpecs,
    packs: () => Object.freeze([...packNames]),
    catalogue: (policy, options) => renderCatalogue(sortedSpecs.filter((spec) => policy.check(spec).ok), options),
  };
  return Object.freeze(registry);
}
