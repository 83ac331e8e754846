/**
 * The registry the CLI and most hosts start from: every safe built-in pack
 * (pure tools plus loop support, whose stores come from the host). The gated
 * packs join only when configured: `fs` needs a root, `http` its limits.
 * Registration is not permission: the policy still denies by default.
 */
import { checkPackOptions, other } from './pack-options.ts';
import type { ToolPack } from '../registry/tool-pack.ts';
import { createToolRegistry, type ToolRegistry } from '../registry/tool-registry.ts';
import { createCapsuleTools } from './capsule-tools.ts';
import { createFileSystemTools, type FileSystemToolsOptions } from './fs-tools.ts';
import { createHttpTools, type HttpToolsOptions } from './http-tools.ts';
import { createJsonTools } from './json-tools.ts';
import { createListTools } from './list-tools.ts';
import { createMapTools } from './map-tools.ts';
import { createMathTools } from './math-tools.ts';
import { createMemoryTools } from './memory-tools.ts';
import { createPolicyTools } from './policy-tools.ts';
import { createScratchTools } from './scratch-tools.ts';
import { createStringTools } from './string-tools.ts';
import { createSystemTools } from './system-tools.ts';
import { createTimeTools } from './time-tools.ts';

/** Options of {@link createDefaultRegistry}. */
export interface DefaultRegistryOptions {
  /** Adds `tool.fs.*` confined to this root. */
  readonly fs?: FileSystemToolsOptions;
  /** Adds `tool.http.Fetch` with these limits (`{}` for the defaults). */
  readonly http?: HttpToolsOptions;
  /** More packs to register after the built-in ones. */
  readonly extraPacks?: readonly ToolPack[];
}

/** Every safe built-in pack: str, list, math, json, map, time, system, memory, scratch, policy, capsule. */
export function createSafeToolPacks(): ToolPack[] {
  return [
    createStringTools(),
    createListTools(),
    createMathTools(),
    createJsonTools(),
    createMapTools(),
    createTimeTools(),
    createSystemTools(),
    createMemoryTools(),
    createScratchTools(),
    createPolicyTools(),
    createCapsuleTools(),
  ];
}

/** A registry of every safe built-in pack, plus `fs`/`http` when configured. */
export function createDefaultRegistry(options: DefaultRegistryOptions = {}): ToolRegistry {
  // A misspelt `fss` would leave the fs tools out without a word.
  checkPackOptions('createDefaultRegistry', options, { fs: other, http: other, extraPacks: other });
  return createToolRegistry([
    ...createSafeToolPacks(),
    ...(options.fs === undefined ? [] : [createFileSystemTools(options.fs)]),
    ...(options.http === undefined ? [] : [createHttpTools(options.http)]),
    ...(options.extraPacks ?? []),
  ]);
}
