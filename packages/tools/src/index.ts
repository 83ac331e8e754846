/**
 * @askloop/tools: tool specs, registry, policy (allow/deny, capabilities,
 * limits), built-in tool packs and durable stores. Everything an agent
 * program does to the world goes through here.
 */
// First, before anything that an old Node cannot load: one clear error on a Node that is too old.
import './node-version-check.ts';
export { TOOL_ERROR_CODES, type ToolErrorCode, type ToolErrorCodeInfo } from './errors/error-codes.ts';
export { ToolError, isToolError, type ToolErrorDetails, type ToolErrorJson } from './errors/tool-error.ts';

export { createManualClock, systemClock, type Clock, type ManualClock } from './clock.ts';

export { canonicalToolName } from './spec/canonical-name.ts';
export { canonicalJson, compareUtf8 } from './spec/canonical-json.ts';
export { bindArguments, isNamedArgumentMap, signatureText, type BoundArguments } from './spec/bind-arguments.ts';
export { loneSurrogateIndex } from './text/lone-surrogate.ts';
export { coerceArgument, describeValue, type CoercionResult } from './spec/coerce-argument.ts';
export { defineTool, type ToolArgumentInput, type ToolSpecInput } from './spec/define-tool.ts';
export type { ToolContext } from './spec/tool-context.ts';
export type { ToolArgumentSpec, ToolArguments, ToolDefinition, ToolEffect, ToolHandler, ToolScopeFunction, ToolSpec } from './spec/tool-spec.ts';
export { isToolMap, MAX_TOOL_VALUE_DEPTH, toToolValue, toolValuesEqual, typeName, type ToolMap, type ToolValue, type ToolValueChecks } from './spec/tool-value.ts';
export { toBoundedToolValue, type ResultBounds } from './spec/bounded-result.ts';

export { defineToolPack, type ToolPack, type ToolPackFactory, type ToolPackOptions } from './registry/tool-pack.ts';
export { createToolRegistry, type RegisteredTool, type ToolRegistry } from './registry/tool-registry.ts';
export { editDistance, suggestNames } from './registry/suggest-names.ts';
export { renderCatalogue, renderCatalogueLine, type CatalogueOptions } from './registry/render-catalogue.ts';

export { callableTool } from './policy/callable-tool.ts';
export { countCallIn, createCallCounter, createCallCounters, type CallCounter, type CallCounters } from './policy/call-counter.ts';
export { capabilityNeedProblem, formatCapability, parseCapability, parseGrant, type Capability } from './policy/capability.ts';
export { findUncoveredNeed, grantsSatisfy } from './policy/capability-match.ts';
export { compileGlob, matchGlob, type GlobOptions } from './policy/glob.ts';
export type { WildcardMatcher } from './policy/wildcard-matcher.ts';
export { createPolicy, type Policy, type PolicyDecision, type PolicyLimits, type PolicyOptions, type ToolCallLimit } from './policy/policy.ts';
export { scopeMatches } from './policy/scope-match.ts';
export { canonicalToolPattern, compileToolPattern, type ToolPattern } from './policy/tool-pattern.ts';

// The interpreter's tool interface, declared here too (spec/tool-signature.ts): a catalogue of one's own type-checks with this package alone.
export type { StaticArgument, ToolArgumentSignature, ToolCatalog, ToolDenial, ToolSignature, ToolValueType } from './spec/tool-signature.ts';
export { callDeadline, createToolHost, type HostToolCatalog, type ToolCallOptions, type ToolCallRecord, type ToolHost, type ToolHostOptions } from './host/tool-host.ts';
export { refuseToolsNeedingApproval } from './host/without-approval.ts';
export { redactToolValue } from './host/redact-tool-output.ts';
export { localToolsModule, workerLocalTools } from './local/worker-local-tools.ts';
export { DEFAULT_MAX_RESULT_ITEMS, DEFAULT_MAX_RESULT_LENGTH, ensureResultItems, ensureResultLength } from './spec/result-size.ts';

export { SQLITE_MIGRATIONS, SQLITE_MIGRATION_OWNER, SQLITE_SCHEMA_VERSION } from './stores/sqlite-migrations.ts';
export { applyMigrations, immediateTransaction, loadSqlite, openDatabase, type ApplyMigrationsOptions, type OpenDatabaseOptions, type SqliteMigration } from './stores/sqlite-database.ts';
export { openSqliteStore, type SqliteStoreOptions, type SqliteToolStore } from './stores/sqlite-store.ts';
export { recordedBefore } from './stores/recorded-before.ts';
export { checkedToolStores } from './stores/checked-stores.ts';
export { PACK_STORE_PREFIX, packStoreKey, scopeStoresToPack } from './stores/pack-scoped-stores.ts';
export type { CasResult, IdempotenceClaim, IdempotenceKey, IdempotenceRecord, IdempotenceStore, MemoryStore, ScratchStore, ToolStores, VersionedValue } from './stores/store-types.ts';

export { AEIOU_V4_AI_RULES, ASK_LOOP_V4_SUMMARY, askLoopSummary, CAPSULE_DOCUMENTS, type CapsuleDocument } from './capsules/capsule-documents.ts';
export { LOOP_TOOLS_GUIDE, loopToolsGuide } from './capsules/loop-tools-guide.ts';
export { NEUROSCRIPT_PRIMER, neuroscriptPrimer, PRIMER_EXAMPLE_PROGRAM, PRIMER_EXAMPLE_WITHOUT_TOOL } from './capsules/neuroscript-primer.ts';
export { createCapsuleTools, type CapsuleToolsOptions } from './packs/capsule-tools.ts';
export { createDefaultRegistry, createSafeToolPacks, type DefaultRegistryOptions } from './packs/default-registry.ts';
export { createFileSystemTools, type FileSystemToolsOptions } from './packs/fs-tools.ts';
export { makeDirectories, makeDirectoriesSync } from './fs/make-directories.ts';
export { createHttpTools, type HttpToolsOptions } from './packs/http-tools.ts';
export type { HostResolver, SpecialAddressRule } from './packs/http-address-guard.ts';
export { createJsonTools } from './packs/json-tools.ts';
export { createListTools } from './packs/list-tools.ts';
export { createMapTools } from './packs/map-tools.ts';
export { createMathTools } from './packs/math-tools.ts';
export { createMemoryTools, type MemoryToolsOptions } from './packs/memory-tools.ts';
export { createPolicyTools } from './packs/policy-tools.ts';
export { createScratchTools, type ScratchToolsOptions } from './packs/scratch-tools.ts';
export { createStringTools } from './packs/string-tools.ts';
export { createSystemTools } from './packs/system-tools.ts';
export { createTimeTools } from './packs/time-tools.ts';
