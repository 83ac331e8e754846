/**
 * @askloop/controller: the ask loop (seed 002 with seed 003's envelope, the
 * v1 dialect of seeds 000/001 and seed 004's `ask` hook) and the plugin
 * registry that wires providers, tool packs, agents and hooks.
 */
// First, before anything that an old Node cannot load: one clear error on a Node that is too old.
import './node-version-check.ts';
export { DEFAULT_AGENT_ALLOW, resolveAgentDefinition } from './agent/agent-definition.ts';
export { MAX_AGENT_DEFINITION_CHARS, parseAgentDefinition, validateAgentDefinition, type ParseAgentDefinitionOptions } from './agent/parse-agent-definition.ts';
export { agentDefinitionIssues, describeGiven, formatIssuePath, type AgentDefinitionIssue } from './agent/validate-agent-definition.ts';
export { listProblems, placeYamlProblem, problemPlace, type PlacedProblem } from './yaml/file-problems.ts';
export type { YamlProblem } from './yaml/yaml-node-paths.ts';
export { locateYamlPath, yamlPathOffset, type YamlPosition } from './yaml/locate-yaml-path.ts';
export { isMergeKey, YAML_READ_OPTIONS } from './yaml/yaml-merge.ts';
export { yamlValueProblems } from './yaml/yaml-value-problems.ts';
export { yamlWarningProblems } from './yaml/yaml-warning-problems.ts';
export { createAskLoop, type AskLoopWithMetrics } from './create-ask-loop.ts';
export { IDEMPOTENCE_RETENTION_MS, MAX_SESSION_LEASE_MS } from './check-ask-loop-options.ts';
export { createMemoryTranscriptStore } from './store/memory-transcript-store.ts';
export { createSqliteTranscriptStore, type SqliteTranscriptStore, type SqliteTranscriptStoreOptions } from './store/sqlite-transcript-store.ts';
export { TRANSCRIPT_MIGRATION_OWNER, TRANSCRIPT_MIGRATIONS, TRANSCRIPT_SCHEMA_VERSION } from './store/sqlite-transcript-migrations.ts';
export { createDefaultInterpreter } from './interpreter/default-interpreter.ts';
export { decideAfter, decideTurn, type DecideInput } from './decide/decide-turn.ts';
export { EMPTY_TALLY, foldTally, tallyOf, type LoopTally, type TallyDecision } from './decide/loop-tally.ts';
export { turnSpend } from './decide/turn-spend.ts';
export { haltReasonOf, isRepairableFailure, isRunTimeFailure } from './decide/halt-reason-of.ts';
export { failureLine, withCodeOnce } from './decide/failure-line.ts';
export {
  errorStreak,
  identicalDigestRun,
  isBudgetSpent,
  isNoProgress,
  isQuotaSpent,
  isTurnLimit,
  isWallClockSpent,
  loopTotals,
  type LoopTotals,
} from './decide/stop-condition.ts';
export { decisionLogEntry } from './loop/decision-log.ts';
export { loopResult, loopResultOf } from './loop/loop-result.ts';
export { systemErrorLine } from './loop/system-error-output.ts';
export { agentPrimer, buildSystemText, sharedSystemLength, V1_CONTROL_RULES, type RemainingBudget } from './loop/system-text.ts';
export { firstDivergence } from './replay/first-divergence.ts';
export { createSessionGate, type SessionGate } from './session/session-gate.ts';
export { sessionEnd, type SessionEnd } from './session/session-end.ts';
export { leaseHolderOf, runUnderLease } from './session/lease-scope.ts';
export { createFencedLeases, type FencedLeases, type LeaseTable } from './store/fenced-leases.ts';
export { createLeaseTokens, leaseLostError, type LeaseLostReason, type LeaseTokens, type WriteFence } from './store/lease-tokens.ts';
export { sessionExistsError } from './store/session-exists-error.ts';
export { countSessions } from './store/count-sessions.ts';
export { listTurnRange, requireTurnRange, type TurnRange } from './store/turn-range.ts';
export { foldAsciiCase, MAX_LIST_SEARCH_LENGTH, requireListLimit, requireListOptions, requireSessionFilter, searchableText, sessionMatchesList, sessionTask, storedTask } from './store/list-options.ts';
export { characterProblem, MAX_SESSION_ID_LENGTH, MAX_TURN_INDEX, requireSessionId, requireTurnIndex, sessionIdProblem } from './store/store-keys.ts';
export type { LoopMetrics } from './metrics/loop-metrics.ts';
export type { AgentDefinition, AgentPolicy, LoopCeilings, ResolvedAgentDefinition, TurnQuotas } from './agent/agent-definition.ts';
export type { AskLoop, AskLoopOptions, ContinueOptions, LoopResult, ReplayDivergence, ReplayReport, RunLoopOptions } from './ask-loop.ts';
export { HALT_REASONS, isResumableHalt, RESUMABLE_HALT_REASONS, type HaltReason } from './decide/halt-reason.ts';
export type { LoopDecision, LoopDecisionKind } from './decide/loop-decision.ts';
export { isLoopError, LOOP_ERROR_CODES, LoopError, type LoopErrorCode, type LoopErrorOptions } from './errors/loop-error.ts';
export type { LoopEvent, LoopEventListener, LoopEventType } from './events/loop-event.ts';
export { otelPlugin, type OtelPluginOptions } from './events/otel-plugin.ts';
export { createOtelListener, type OtelApiSubset } from './events/otel-spans.ts';
export type {
  AskCall,
  ErrorKindOf,
  ExecuteOptions,
  LoopInterpreter,
  LoopToolBridge,
  PreparedProgram,
  PrepareOptions,
  PrepareResult,
  ScriptErrorKind,
  ToolCallObservation,
} from './interpreter/loop-interpreter.ts';
export type {
  ControlSignal,
  DecisionLogEntry,
  EarlierUnfinishedCall,
  InterruptedRun,
  RecordedAsk,
  AskUsage,
  ModelSpend,
  RecordedReply,
  RecordedToolCall,
  TurnFailure,
  TurnKind,
  TurnPhase,
  TurnRecord,
  TurnTimings,
  UnfinishedToolCall,
} from './loop/turn-record.ts';
export { MAX_INTERRUPTED_KEPT } from './loop/turn-record.ts';
export { TOOL_CALLS_VERSION } from './loop/tool-calls-version.ts';
export { definePlugin, type Approval, type AskLoopPlugin, type LoopHooks, type ToolSource, type TurnContext } from './plugin/plugin.ts';
export { pluginShapeProblem } from './plugin/plugin-shape.ts';
export { checkPlugins } from './plugin/check-plugins.ts';
export { PROGRAM_GLOBALS } from './loop/program-globals.ts';
export { BUILTIN_PROVIDERS, builtinPlugin, type BuiltinPluginOptions, type BuiltinProviderName, type BuiltinProviderSettings } from './plugin/builtin-plugin.ts';
// What a plugin author needs besides definePlugin, so a plugin can depend on the controller alone.
export {
  createLanguageModel,
  createScriptedProvider,
  defineProvider,
  isProviderError,
  ProviderError,
  readServerSentEvents,
  type AttemptRequest,
  type AttemptResult,
  type LanguageModel,
  type ModelAttempt,
  type Provider,
  type ProviderDefinition,
} from '@askloop/providers';
export { defineTool, defineToolPack, isToolError, ToolError, type ToolContext, type ToolPack, type ToolSpecInput } from '@askloop/tools';
export type { ListSessionsOptions, SessionFilter, SessionRecord, SessionStatus, TranscriptStore } from './store/transcript-store.ts';
