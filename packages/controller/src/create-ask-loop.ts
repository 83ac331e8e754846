/**
 * `createAskLoop({ plugins, store })`: resolves the plugins once and returns
 * the {@link AskLoop} whose drivers (run, step, resume, approve, deny,
 * replay) all run the same loop over stored records.
 */
import { randomUUID } from 'node:crypto';
import { createSandboxPool, type JsonValue, type SandboxPool, type SandboxRunner } from '@askloop/interpreter';
import { isProviderError, type LanguageModel } from '@askloop/providers';
import { createCallCounter, openSqliteStore, systemClock, type CallCounter, type HostToolCatalog, type Policy, type ToolRegistry, type ToolStores } from '@askloop/tools';
import { agentPolicy, findAgent } from './agent/find-agent.ts';
import { resolveAgentDefinition, type AgentDefinition, type ResolvedAgentDefinition } from './agent/agent-definition.ts';
import { agentsReachableByAsk } from './agent/reachable-agents.ts';
import { requireLimitedToolsOfSession } from './agent/require-limited-tools.ts';
import { askedAgent, costsCounted } from './agent/asked-agent.ts';
import { pricesHint } from './agent/prices-hint.ts';
import { providerNotFoundHint } from './agent/provider-not-found-hint.ts';
import type { AskLoop, AskLoopOptions, ContinueOptions, LoopResult, ReplayReport, RunLoopOptions } from './ask-loop.ts';
import { isLoopError, LoopError } from './errors/loop-error.ts';
import { isResumableHalt } from './decide/halt-reason.ts';
import { createEventBus } from './events/event-bus.ts';
import type { LoopEvent } from './events/loop-event.ts';
import { decisionLogEntry } from './loop/decision-log.ts';
import { createDefaultInterpreter } from './interpreter/default-interpreter.ts';
import type { AskCall } from './interpreter/loop-interpreter.ts';
import { driveLoop } from './loop/drive-loop.ts';
import type { AskBudget, AskOrigin, LoopContext } from './loop/loop-context.ts';
import { childAnswer } from './session/child-answer.ts';
import { createLoopMetrics, type LoopMetrics } from './metrics/loop-metrics.ts';
import { pluginModel } from './plugin/plugin-model.ts';
import { resolvePlugins } from './plugin/resolve-plugins.ts';
import { createTurnRegistry } from './plugin/turn-registry.ts';
import { listToolSourcesFirst } from './plugin/list-tool-sources-first.ts';
import { loopResult } from './loop/loop-result.ts';
import { replaySession } from './replay/replay-session.ts';
import { applyApproval } from './session/apply-approval.ts';
import { ASK_NOT_ALLOWED, askRefusal } from './agent/may-ask.ts';
import { countAsk } from './session/count-ask.ts';
import { limitsCallsPerSession } from './session/counted-calls.ts';
import { createKeptCounter } from './session/kept-counter.ts';
import { newSession } from './session/new-session.ts';
import { isNoCostLeft } from './decide/stop-condition.ts';
import { createSessionCache } from './session/session-cache.ts';
import { createSessionGate } from './session/session-gate.ts';
import { createRunAdmission } from './session/run-admission.ts';
import { leaseSessions } from './session/session-lease.ts';
import { guardStore } from './store/guard-store.ts';
import { requireSessionId } from './store/store-keys.ts';
import { createCallLifecycle, isAbortSignal } from './session/call-lifecycle.ts';
import { callOptionsProblem, type CallName } from './session/call-options.ts';
import { checkAskLoopOptions, DEFAULT_SESSION_LEASE_MS, idempotenceRetention } from './check-ask-loop-options.ts';
import { prepareTurn } from './loop/prepare-turn.ts';
import { toolsMissing, unknownTools } from './loop/tools-missing.ts';
import { createRecordRedaction, createToolOutputRedaction } from './loop/tool-output-redaction.ts';
import { hideSessionSecrets } from './loop/hide-secrets.ts';
import { refuseSecretInAgent } from './agent/secret-in-agent.ts';
import { hidingSecrets } from './store/secret-hiding-store.ts';
import type { SessionRecord, TranscriptStore } from './store/transcript-store.ts';

/** Distinct agent definitions whose resolved form a controller keeps. */
const AGENT_CACHE_MAX = 64;
/** Workers assumed in a pool that does not say (a bare `SandboxRunner`). */
const DEFAULT_POOL_GUESS = 3;

/** The controller with its counters. */
export interface AskLoopWithMetrics extends AskLoop {
  /** Counters over every session this controller ran (decisions, halts, failed validations, tokens, cost). */
  metrics(): LoopMetrics;
}

/** Creates the controller. Throws `LOOP_PLUGIN_INVALID` / `LOOP_CONFIG_INVALID` for a bad configuration. */
export function createAskLoop(options: AskLoopOptions): AskLoopWithMetrics {
  checkAskLoopOptions(options);
  const recordRedaction = createRecordRedaction(options.secrets);
  // Bounded: sessions that end elsewhere (another worker), stay paused or fail never reach `settle` here.
  const models = createSessionCache<LanguageModel>(options.sessionCacheSize);
  /** What hides the known secrets in what is stored of session `sid`: the loop's, and its model's keys when this controller made its model. */
  const redactStored = (sid: string) => recordRedaction(models.get(sid));
  // Every write hides the known secrets (secret-hiding-store.ts): nothing stored holds one, whichever path it came by.
  const store = hidingSecrets(guardStore(options.store), redactStored);
  const plugins = resolvePlugins(options.plugins);
  const clock = options.clock ?? systemClock;
  const createId = options.createId ?? randomUUID;
  let ownedPool: SandboxPool | undefined;
  // Three workers; a turn waiting on `ask` lets the pool run one more for its child's turns (`maxNestedWorkers`, 12).
  const pool: SandboxRunner = options.pool ?? { run: (request) => (ownedPool ??= createSandboxPool({ workers: 3 })).run(request) };
  // Twice the pool's workers: one turn prepares on this thread while the workers run the others.
  const poolSize = options.pool === undefined ? 3 : (options.pool as Partial<SandboxPool>).stats?.().size;
  const admission = createRunAdmission(options.maxConcurrentRuns ?? 2 * (poolSize ?? DEFAULT_POOL_GUESS));
  const interpreter = options.interpreter ?? createDefaultInterpreter(pool);
  let toolStore: ToolStores | undefined = options.toolStores;
  let ownedToolStore: { close(): void } | undefined;
  // Injected stores first, then a file of their own, then the transcript's own database (one SQLite file for both), else a throwaway one.
  const toolStores = (): ToolStores => {
    if (toolStore !== undefined) return toolStore;
    // The transcript store's own tool stores keep their own clock unless one was injected here: a PostgreSQL store's
    // is the database server's, which every host shares (this host's own may be set apart from the others').
    const storeClock = options.clock === undefined ? {} : { clock: options.clock };
    const opened = options.toolStorePath !== undefined ? openSqliteStore(options.toolStorePath, { clock }) : (options.store.openToolStores?.(storeClock) ?? openSqliteStore(':memory:', { clock }));
    ownedToolStore = opened;
    return (toolStore = opened);
  };
  const busy = options.busy ?? 'wait';
  // In-process single flight, plus the store's lease when several hosts share the store.
  const gate = leaseSessions(createSessionGate(busy), options.store, { holder: randomUUID(), leaseMs: options.sessionLeaseMs ?? DEFAULT_SESSION_LEASE_MS, busy });
  const retentionMs = idempotenceRetention(options);
  const toolOutputRedaction = createToolOutputRedaction(options.secrets);
  const metrics = createLoopMetrics();
  const lifecycle = createCallLifecycle();
  /** `close()`'s work, done once however often it is called. */
  let closed: Promise<void> | undefined;
  const toolRegistry = createTurnRegistry(plugins.toolPacks, plugins.toolSources, plugins.toolOwners);
  const counters = createSessionCache<CallCounter>(options.sessionCacheSize);
  const now = (): string => new Date(clock.now()).toISOString();
  // One resolved agent and policy per stored definition, shared by its sessions (and so is their system text).
  const agents = createSessionCache<{ readonly agent: ResolvedAgentDefinition; readonly policy: Policy }>(AGENT_CACHE_MAX);

  function agentOf(session: SessionRecord): { readonly agent: ResolvedAgentDefinition; readonly policy: Policy } {
    const key = JSON.stringify(session.agentDefinition);
    let found = agents.get(key);
    if (found === undefined) {
      const agent = resolveAgentDefinition(session.agentDefinition as unknown as AgentDefinition);
      agents.set(key, (found = { agent, policy: agentPolicy(agent) }));
    }
    return found;
  }

  /**
   * A new model object for `agent`'s model id; LOOP_PROVIDER_NOT_FOUND when no provider has it, LOOP_PLUGIN_INVALID
   * when its provider is malformed or misconfigured (`PROVIDER_CONFIG` when making the model: `defineProvider` given
   * the request function itself as `attempt`, say), which no other model id would mend, or when its `languageModel`
   * returns no model; LOOP_PLUGIN_ERROR when that throws anything but a ProviderError (`pluginModel`).
   */
  function newModel(sid: string, agent: ResolvedAgentDefinition): LanguageModel {
    try {
      return pluginModel(plugins.providers, plugins.providerPlugins, agent.model);
    } catch (error) {
      // The plugin's provider threw something else, or returned no model: already named (pluginModel).
      if (isLoopError(error)) throw error;
      if (isProviderError(error) && error.code === 'PROVIDER_CONFIG') {
        const plugin = error.provider === undefined ? undefined : plugins.providerPlugins.get(error.provider);
        const of = plugin === undefined ? '' : ` (provider '${error.provider}' of plugin '${plugin}'; fix the plugin or its options)`;
        throw new LoopError({ code: 'LOOP_PLUGIN_INVALID', message: `agent '${agent.name}': ${error.message}${of}`, sid, ...(plugin === undefined ? {} : { plugin }), cause: error });
      }
      const hint = providerNotFoundHint(error, agent.model, plugins.providers.providerNames);
      throw new LoopError({ code: 'LOOP_PROVIDER_NOT_FOUND', message: `agent '${agent.name}': ${error instanceof Error ? error.message : String(error)}${hint}`, sid, cause: error });
    }
  }

  /**
   * A cost ceiling needs a model with prices: without them every call costs this host $0, and the ceiling that the
   * agent counts on to stop the loop would never be reached, silently. Refused before the session is stored.
   */
  function requireCostCountable(agent: ResolvedAgentDefinition, model: LanguageModel, askedBy?: string): void {
    const ceiling = agent.ceilings.costUsd;
    if (ceiling === undefined || costsCounted(model)) return;
    throw new LoopError({
      code: 'LOOP_AGENT_INVALID',
      message: `agent '${agent.name}'${askedBy === undefined ? '' : ` (reachable by ask from '${askedBy}')`}: ceilings.costUsd (${ceiling}) could never be reached: the model ${agent.model} has no prices in this host, so each of its calls costs $0 here; give the model prices where its provider is made ${pricesHint(agent.model, plugins.providerPlugins)} or bound the loop with ceilings.tokens instead`,
    });
  }

  /**
   * {@link requireCostCountable} for each agent `agent`'s session may reach by `ask` (`reachable`) that has a cost
   * ceiling, before the session is stored: refused only when a child starts, it would fail a turn of its asker whose reply was paid
   * for. An asked agent whose provider is missing is left to its `ask` (LOOP_PROVIDER_NOT_FOUND there, as before).
   */
  function requireAskedCostsCountable(agent: ResolvedAgentDefinition, reachable: readonly ResolvedAgentDefinition[]): void {
    for (const asked of reachable) {
      if (asked.ceilings.costUsd === undefined) continue;
      let model: LanguageModel;
      try {
        model = pluginModel(plugins.providers, plugins.providerPlugins, asked.model);
      } catch {
        continue;
      }
      requireCostCountable(asked, model, agent.name);
    }
  }

  function modelFor(sid: string, agent: ResolvedAgentDefinition): LanguageModel {
    let model = models.get(sid);
    if (model === undefined) {
      // One model per session, so a scripted model's replies carry on from turn to turn.
      model = newModel(sid, agent);
      models.set(sid, model);
    }
    return model;
  }

  /** Drops a finished session's model and call counter (one `resume` may run again keeps them). */
  function settle(result: LoopResult): LoopResult {
    if (result.status === 'DONE' || (result.status === 'HALT' && !isResumableHalt(result.reason, result.failure))) {
      models.delete(result.sid);
      counters.delete(result.sid);
    }
    return result;
  }

  async function requireSession(sid: string, from: TranscriptStore = store): Promise<SessionRecord> {
    const session = await from.getSession(sid);
    if (session === undefined) throw new LoopError({ code: 'LOOP_SESSION_NOT_FOUND', message: `no session ${sid} in the store; check the id (the store's listSessions() lists them), or start it with run() or create()`, sid });
    return session;
  }

  async function depthOf(session: SessionRecord): Promise<number> {
    let depth = 0;
    for (let parent = session.parentSid; parent !== undefined; parent = (await store.getSession(parent))?.parentSid) depth += 1;
    return depth;
  }

  /** Where a call's events go: the metrics, the controller's listener, the call's and the plugins' `event` hooks. */
  function eventsFor(call: ContinueOptions): (event: LoopEvent) => void {
    return createEventBus([metrics.observe, options.onEvent, call.onEvent], plugins.hooks);
  }

  /**
   * The session's call counter, kept between calls. Under a policy that limits calls per session, each step first
   * brings it up to date with the stored turns (`kept-counter.ts`): it is rebuilt from them when this controller has
   * not counted them yet, or another host stepped the session since.
   */
  function counterOf(session: SessionRecord, policy: Policy): CallCounter {
    let counter = counters.get(session.sid);
    if (counter === undefined) counters.set(session.sid, (counter = limitsCallsPerSession(policy.limits) ? createKeptCounter() : createCallCounter()));
    return counter;
  }

  /** The context of a call driving `session`; `overrides.sessionCounter` (a replay's own) leaves the kept counter alone. */
  function contextFor(session: SessionRecord, depth: number, call: ContinueOptions, overrides: Partial<LoopContext> = {}): LoopContext {
    const { agent, policy } = agentOf(session);
    const emit = eventsFor(call);
    const sessionCounter = overrides.sessionCounter ?? counterOf(session, policy);
    const ask =
      depth < agent.maxAskDepth
        ? async (request: AskCall, origin: AskOrigin): Promise<JsonValue> => {
            // Checked again when it runs: the check saw only asks of a literal name.
            const refusal = askRefusal(agent, request.agent);
            if (refusal !== undefined) throw Object.assign(new Error(refusal), { code: ASK_NOT_ALLOWED });
            countAsk(policy, { turn: origin.turnCounter, session: sessionCounter });
            return runChild(session.sid, depth + 1, request, origin, call);
          }
        : undefined;
    return {
      store,
      interpreter,
      hooks: plugins.hooks,
      clock,
      emit,
      session,
      agent,
      loopId: createId(),
      model: overrides.model ?? modelFor(session.sid, agent),
      toolRegistry,
      policy,
      toolStores: toolStores(),
      sessionCounter,
      ...(ask === undefined ? {} : { ask }),
      ...(call.signal === undefined ? {} : { signal: call.signal }),
      // A child loop of `ask` runs while its parent's turn holds a slot: it must not wait for one; and no person
      // answers it (its asker fails the statement on a pause), so it may not pause for approval.
      ...(depth === 0 ? { admission } : { noApprover: true }),
      idempotenceRetentionMs: retentionMs,
      toolOutputRedaction,
      ...(options.endGraceMs === undefined ? {} : { endGraceMs: options.endGraceMs }),
      ...overrides,
    };
  }

  /** Stores a new session. `registry` is the one its caller listed the tool sources for: complete, with the MCP servers' tools. */
  async function create(run: RunLoopOptions, registry: ToolRegistry, parentSid?: string, depth = 0, budgetLeft?: AskBudget): Promise<SessionRecord> {
    const found = findAgent(plugins.agents, run.agent);
    agentPolicy(found);
    // Before the model is made and the session stored: a misspelt per-tool limit key, of this agent or of one it may
    // ask, refuses the run, storing nothing.
    const reachable = agentsReachableByAsk(found, plugins.agents, depth);
    requireLimitedToolsOfSession(found, reachable, registry);
    requireAskedCostsCountable(found, reachable);
    const sid = run.sid ?? createId();
    // Every store would refuse it too, but only after the model was made: a sid with U+0000 or a line break also breaks logs and the viewer.
    requireSessionId(sid, run.sid === undefined ? 'createId' : 'options.sid');
    // Made before the session is stored (an unknown provider stores nothing), kept only once it is: a run refused
    // for a sid already in the store must not leave its model to answer that other session's turns.
    const model = newModel(sid, found);
    // An ask's child: its token and cost ceilings lowered to what its asker has left (stored so, so a resume keeps them).
    const agent = askedAgent(found, budgetLeft, model);
    requireCostCountable(agent, model);
    // Hidden here, not only as it is stored: the session the loop runs on (its USERDATA, which the envelopes carry and
    // programs read) is the stored one, so a turn in this process and one a resume runs see the same.
    const redaction = recordRedaction(model);
    const fresh = newSession(agent, run.task, sid, now(), parentSid);
    // A secret in what the agent is (a policy pattern, its model id), not in its text, would make the stored agent another one.
    refuseSecretInAgent(agent.name, fresh.agentDefinition, redaction);
    const session = hideSessionSecrets(fresh, redaction);
    await store.createSession(session);
    if (models.get(sid) === undefined) models.set(sid, model);
    return session;
  }

  /**
   * Lists the tool sources (MCP servers) before a call stores or changes anything: one that cannot start fails the
   * call with LOOP_PLUGIN_ERROR and leaves the store as it was (no session that never took a turn, no approval
   * recorded for a turn that cannot run); the caller's signal aborting meanwhile fails it with LOOP_CANCELLED. Sources
   * keep their lists, so the turn's own listing is cheap. Resolves with the registry listed.
   */
  async function startToolSources(signal: AbortSignal | undefined, nothingDone: string): Promise<ToolRegistry> {
    // Without sources the registry is built once and nothing can be slow: a signal aborted already is the turn's to see.
    return plugins.toolSources.length > 0 ? listToolSourcesFirst(toolRegistry, signal, nothingDone) : toolRegistry();
  }

  async function start(run: RunLoopOptions, parentSid?: string, depth = 0, origin?: AskOrigin): Promise<LoopResult> {
    const registry = await startToolSources(run.signal, 'no session was stored');
    const session = await create(run, registry, parentSid, depth, origin?.budgetLeft);
    origin?.started(session.sid);
    if (session.status === 'halted') return haltedBeforeFirstTurn(session, run);
    return settle(await driveLoop(contextFor(session, depth, run), gate));
  }

  /**
   * A session halted before its first turn (a task that is no valid USERDATA, or too large for an envelope): no turn
   * ran, but the call's events say what happened — `loop-start`, then `loop-end` with the HALT, marked as a decision
   * no turn carried, which `metrics()` counts. It used to end with no event at all.
   */
  function haltedBeforeFirstTurn(session: SessionRecord, run: RunLoopOptions): LoopResult {
    const emit = eventsFor(run);
    const { agent } = agentOf(session);
    const loopId = createId();
    const result = loopResult(session.sid, [], 'v4', session.lastDecision);
    emit({ type: 'loop-start', sid: session.sid, loopId, ts: now(), agent: agent.name, model: agent.model, resumed: false, ...(session.parentSid === undefined ? {} : { parentSid: session.parentSid }) });
    emit({ type: 'loop-end', sid: session.sid, loopId, ts: now(), result, beforeFirstTurn: true });
    return result;
  }

  async function runChild(parentSid: string, depth: number, request: AskCall, origin: AskOrigin, call: ContinueOptions): Promise<JsonValue> {
    const agent = findAgent(plugins.agents, request.agent);
    // `ask … with {"max_turns": n}` can only lower the child's turn ceiling, never raise it.
    const asked = (request.options as { max_turns?: unknown } | null)?.max_turns;
    const maxTurns = typeof asked === 'number' && Number.isInteger(asked) && asked > 0 ? Math.min(asked, agent.ceilings.maxTurns) : agent.ceilings.maxTurns;
    // With nothing left of the asker's tokens or cost, no child starts (its first turn would run whole, as any loop's
    // does before its ceiling is checked); otherwise `create` lowers its ceilings to what is left (askedAgent).
    const left = origin.budgetLeft;
    const spent = left === undefined ? undefined : left.tokens !== undefined && left.tokens <= 0 ? 'token' : left.costUsd !== undefined && isNoCostLeft(left.costUsd) ? 'cost' : undefined;
    if (spent !== undefined) {
      throw Object.assign(new Error(`ask ${JSON.stringify(request.agent)}: the asking loop has spent its ${spent} ceiling, so no child loop was started`), { code: 'LOOP_ASK_FAILED' });
    }
    const child = { ...agent, ceilings: { ...agent.ceilings, maxTurns } };
    const result = await start({ agent: child, task: request.prompt, signal: request.signal, ...(call.onEvent === undefined ? {} : { onEvent: call.onEvent }) }, parentSid, depth, origin);
    // What the child spent, whatever its end: the asker's token and cost ceilings count it (the turn records it).
    origin.ended?.({ inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens, costUsd: result.usage.costUsd });
    // A child that paused anyway (a v1 await; a plugin's gate holding its program is denied in the turn, run-turn.ts)
    // is answered no at once: its asker fails the statement and goes on, so an approval given later would run the
    // child's program for no one.
    if (result.status === 'PAUSED') {
      const redecided = await gate.run(result.sid, () => applyApproval(store, result.sid, false, 'its asker could not wait for a person\'s approval', now()), call.signal);
      if (redecided?.decision !== undefined) {
        const { sid: id, loopId, turnIndex, decision } = redecided;
        eventsFor(call)({ type: 'decision', sid: id, loopId, ts: now(), turnIndex, decision, log: decisionLogEntry(redecided), record: redecided, redecided: true });
      }
    }
    return childAnswer(request.agent, result);
  }

  async function resume(sid: string, call: ContinueOptions = {}, once = false): Promise<LoopResult> {
    const session = await requireSession(sid);
    await startToolSources(call.signal, `session ${sid} is as it was`);
    return continueSession(session, call, once);
  }

  /** Drives a stored session on, its tool sources listed already. */
  async function continueSession(session: SessionRecord, call: ContinueOptions, once = false): Promise<LoopResult> {
    return settle(await driveLoop(contextFor(session, await depthOf(session), call), gate, { once, resumed: true }));
  }

  async function decideApproval(sid: string, approved: boolean, call: ContinueOptions = {}): Promise<LoopResult> {
    const session = await requireSession(sid);
    // Everything the continuation needs is resolved before the answer is stored: an answer recorded for a session
    // that then cannot go on (no provider for its model) would leave it neither paused nor answerable again.
    modelFor(sid, agentOf(session).agent);
    const registry = await startToolSources(call.signal, `nothing was decided and session ${sid} is as it was`);
    // The paused program must be runnable here: an approval recorded on a host without its tools would halt the turn.
    const paused = await store.lastTurn(sid);
    if (approved && paused?.phase === 'awaiting-approval' && paused.reply !== undefined) {
      // Which tools exist here, nothing more: the policy and the arguments are the run's to check, as always.
      const existing: HostToolCatalog = { get: (name) => registry.get(name), names: () => registry.names(), check: () => undefined, suggest: () => [], isNamedArgumentMap: () => false };
      const missing = unknownTools(await prepareTurn(interpreter, paused.reply.text, existing));
      if (missing.length > 0) throw toolsMissing(paused, missing, 'nothing was recorded');
    }
    const redecided = await gate.run(sid, () => applyApproval(store, sid, approved, call.note, now()), call.signal);
    if (redecided?.decision !== undefined) {
      // A denied v1 await: its turn is decided again (HALT), and the decision log records it.
      const { sid: id, loopId, turnIndex, decision } = redecided;
      eventsFor(call)({ type: 'decision', sid: id, loopId, ts: now(), turnIndex, decision, log: decisionLogEntry(redecided), record: redecided, redecided: true });
    }
    // The session as the answer left it; its sources were listed above.
    return continueSession(await requireSession(sid), call);
  }

  async function replay(sid: string): Promise<ReplayReport> {
    const session = await requireSession(sid);
    const depth = await depthOf(session);
    // A counter of its own: the replay counts the calls it replays from turn 1, and must not leave this controller an
    // empty counter for the session (its next step would then allow every call the policy's perSession had left).
    // Its scratch store hides the secrets as the live one did, so what it compares is stored alike.
    return replaySession(store, session, (overrides) => contextFor(session, depth, {}, { sessionCounter: createCallCounter(), ...overrides }), now, (scratch) => hidingSecrets(scratch, redactStored));
  }

  /**
   * A call's options, checked: an object (or nothing, but for `run` and `create`) of the options the call takes
   * ({@link callOptionsProblem}), whose signal `lifecycle.track` checks. A signal already aborted is `LOOP_CANCELLED`
   * before anything is stored or changed, as one aborted while the call waits is.
   */
  const callOptions = <T extends object>(what: CallName, given: T | undefined): T => {
    if (given === undefined && (what === 'run' || what === 'create')) throw new LoopError({ code: 'LOOP_ARGUMENT_INVALID', message: `${what} needs its options: { agent, task }` });
    if (given === undefined) return {} as T;
    const problem = callOptionsProblem(what, given);
    if (problem !== undefined) throw new LoopError({ code: 'LOOP_ARGUMENT_INVALID', message: `${what}: ${problem}; nothing was stored` });
    const signal = (given as { signal?: unknown }).signal;
    if (isAbortSignal(signal) && signal.aborted) throw new LoopError({ code: 'LOOP_CANCELLED', message: `${what}: the signal was aborted before the call began; nothing was stored or changed` });
    return given;
  };
  /** Runs a public call under the lifecycle: refused after close(), cancelled by it, its signal checked and followed. */
  const tracked = <T extends { readonly signal?: AbortSignal | undefined }, R>(what: CallName, given: T | undefined, call: (options: T) => Promise<R>): Promise<R> => {
    // After close() every call is LOOP_CLOSED, whatever else is wrong with it (a host rebuilds its controller on it).
    const closed = lifecycle.closedError(what);
    if (closed !== undefined) return Promise.reject(closed);
    let checked: T;
    try {
      checked = callOptions(what, given);
    } catch (error) {
      return Promise.reject(error);
    }
    return lifecycle.track(what, checked.signal, (signal) => call({ ...checked, signal }));
  };

  return {
    create: (run) =>
      tracked('create', run, async (checked) => {
        // As `run` does: the limit keys are checked against a registry that holds the MCP servers' tools.
        return (await create(checked, await startToolSources(checked.signal, 'no session was stored'))).sid;
      }),
    run: (run) => tracked('run', run, (checked) => start(checked)),
    // Each names itself when its session id is wrong (not the store call it would first reach).
    step: (sid, call) => tracked('step', call, async (checked) => {
      requireSessionId(sid, 'step');
      return resume(sid, checked, true);
    }),
    resume: (sid, call) => tracked('resume', call, async (checked) => {
      requireSessionId(sid, 'resume');
      return resume(sid, checked);
    }),
    approve: (sid, call) => tracked('approve', call, async (checked) => {
      requireSessionId(sid, 'approve');
      return decideApproval(sid, true, checked);
    }),
    deny: (sid, call) => tracked('deny', call, async (checked) => {
      requireSessionId(sid, 'deny');
      return decideApproval(sid, false, checked);
    }),
    replay: (sid) => lifecycle.track('replay', undefined, async () => {
      requireSessionId(sid, 'replay');
      return replay(sid);
    }),
    metrics: () => metrics.snapshot(),
    close: () =>
      (closed ??= (async () => {
        // The calls in flight first: cancelled (a run ends HALT ERR_CANCELLED) and waited for, so none meets a closed pool or store.
        await lifecycle.close();
        for (const { source } of plugins.toolSources) await source.close?.();
        await ownedPool?.close();
        // Before the store: tool stores sharing the transcript's connection must not outlive it.
        ownedToolStore?.close();
        await store.close();
      })()),
  };
}
