/**
 * @askloop/controller: the ask loop (seed 002 with seed 003's envelope, the
 * v1 dialect of seeds 000/001 and seed 004's `ask` hook) and the plugin
 * registry that wires providers, tool packs, agents and hooks.
 */
export { DEFAULT_AGENT_ALLOW, resolveAgentDefinition } from './agent/agent-definition.ts';
export type { AgentDefinition, AgentPolicy, LoopCeilings, ResolvedAgentDefinition, TurnQuotas } from './agent/agent-definition.ts';
export type { AskLoop, AskLoopOptions, ContinueOptions, LoopResult, ReplayDivergence, ReplayReport, RunLoopOptions } from './ask-loop.ts';
export { HALT_REASONS, type HaltReason } from './decide/halt-reason.ts';
export type { LoopDecision, LoopDecisionKind } from './decide/loop-decision.ts';
export { isLoopError, LOOP_ERROR_CODES, LoopError, type LoopErrorCode, type LoopErrorOptions } from './errors/loop-error.ts';
export type { LoopEvent, LoopEventListener, LoopEventType } from './events/loop-event.ts';
export type {
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
  RecordedReply,
  RecordedToolCall,
  TurnFailure,
  TurnKind,
  TurnPhase,
  TurnRecord,
  TurnTimings,
} from './loop/turn-record.ts';
export { definePlugin, type Approval, type AskLoopPlugin, type LoopHooks, type ToolSource, type TurnContext } from './plugin/plugin.ts';
export type { ListSessionsOptions, SessionRecord, SessionStatus, TranscriptStore } from './store/transcript-store.ts';
