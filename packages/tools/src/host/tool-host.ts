/**
 * The tool host: the single entry point the interpreter's run-time bridge
 * calls, one host per turn. `call(name, args)` canonicalises the name, looks
 * the tool up, checks the policy, binds and coerces the arguments (positional
 * or one map of named arguments), authorizes the call against its actual
 * arguments and the call limits, replays a recorded result for write and
 * external tools (seed 000 §2.12), runs the handler with a timeout, wraps
 * failures with the tool's and pack's names, and records the result.
 */
import type { StaticArgument, ToolCatalog, ToolSignature } from '../spec/tool-signature.ts';
import { systemClock, type Clock } from '../clock.ts';
import { ToolError, isToolError } from '../errors/tool-error.ts';
import type { CallCounter, CallCounters } from '../policy/call-counter.ts';
import { countCallIn, createCallCounters } from '../policy/call-counter.ts';
import type { Capability } from '../policy/capability.ts';
import type { Policy, PolicyDecision } from '../policy/policy.ts';
import { callableTool } from '../policy/callable-tool.ts';
import type { RegisteredTool, ToolRegistry } from '../registry/tool-registry.ts';
import { suggestNames } from '../registry/suggest-names.ts';
import { bindArguments, isNamedArgumentMap } from '../spec/bind-arguments.ts';
import { canonicalToolName } from '../spec/canonical-name.ts';
import { literalArgumentError } from '../spec/literal-argument-error.ts';
import { canonicalJson } from '../spec/canonical-json.ts';
import { copyArguments } from '../spec/copy-arguments.ts';
import type { ToolContext } from '../spec/tool-context.ts';
import type { ToolSpec } from '../spec/tool-spec.ts';
import { toBoundedToolValue } from '../spec/bounded-result.ts';
import { DEFAULT_MAX_RESULT_ITEMS, DEFAULT_MAX_RESULT_LENGTH } from '../spec/result-size.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import { seesSharedStores } from '../packs/shared-store-tools.ts';
import { scopeStoresToPack } from '../stores/pack-scoped-stores.ts';
import type { IdempotenceKey, IdempotenceRecord, IdempotenceStore, ToolStores } from '../stores/store-types.ts';
import { storedNameProblem } from '../text/stored-name.ts';
import { runWithTimeout } from './run-with-timeout.ts';
import { scopedDenial } from './scoped-denial.ts';
import { holdsText, redactToolFailure, redactToolValue } from './redact-tool-output.ts';
import { wrapToolFailure } from './wrap-tool-failure.ts';
import { checkToolHostOptions } from './tool-host-options.ts';

/** Options of {@link createToolHost}. */
export interface ToolHostOptions {
  readonly registry: ToolRegistry;
  readonly policy: Policy;
  /**
   * Stores for memory/scratch tools and idempotence records. Without `idempotence`, write calls are not recorded.
   * The built-in memory and scratch tools see `memory` and `scratch` as they are; every other pack sees its own
   * view, its keys stored under `pack:<name>/` (`scopeStoresToPack`), which those tools refuse.
   */
  readonly stores?: Partial<ToolStores>;
  /** Session id (SID). */
  readonly session: string;
  /** Turn index within the session. */
  readonly turn: number;
  readonly clock?: Clock;
  /** The session's call counter, kept by the caller across turns. Default: a fresh one. */
  readonly sessionCounter?: CallCounter;
  /**
   * The turn's call counter. Default: a fresh one. Pass one to count calls the
   * host does not make against the same per-turn limit (the controller counts
   * each `ask` in it).
   */
  readonly turnCounter?: CallCounter;
  /** Timeout for tools whose spec has none, in ms. Default 10000. */
  readonly defaultTimeoutMs?: number;
  /**
   * Cancels every pending and later call when it aborts: abort it when the
   * run ends (timeout, error, abort), so no tool outlives its run or keeps
   * the process alive. Pending calls reject with `TOOL_CANCELLED`.
   */
  readonly signal?: AbortSignal;
  /**
   * The run's deadline on `clock` (epoch ms): no call may run past it, so
   * tool time counts against the run. A call's timeout is the smaller of its
   * own and the time left. A call made with `timeLeftMs` may run until now +
   * that + `deadlineGraceMs` when that is later (see {@link ToolCallOptions}).
   * Default: none.
   */
  readonly deadline?: number;
  /**
   * Added to a call's `timeLeftMs` to make its deadline, as the host's maker
   * added a grace to `deadline` (the controller: 50 ms, so a call cut there
   * finds the run already over its time). Default 0.
   */
  readonly deadlineGraceMs?: number;
  /**
   * The most characters one result may hold (all strings, map keys included):
   * pass the run's `stringLength`. Default {@link DEFAULT_MAX_RESULT_LENGTH}
   * (the interpreter's default). Larger results are `TOOL_RESULT_TOO_LARGE`.
   */
  readonly maxResultLength?: number;
  /**
   * The most items one list or map of a result may hold: pass the run's
   * `collectionSize`. Default {@link DEFAULT_MAX_RESULT_ITEMS} (the
   * interpreter's default). Larger results are `TOOL_RESULT_TOO_LARGE`.
   */
  readonly maxResultItems?: number;
  /**
   * Journal the results of this run's read calls that came before a write,
   * as idempotence records at their own positions, once that write has acted
   * (a write that fails or is cancelled journals nothing: a later run reads
   * afresh). Reads after the run's last write are not journaled (nothing the
   * run left behind depends on them), nor calls of a pure pack
   * (`defineToolPack(name, tools, { pure: true })`: the same arguments give the same result). Needs
   * `stores.idempotence`. Default false; the controller sets it, so that a
   * run continuing this one (`continuesRun`) reads what this one read.
   */
  readonly journalReads?: boolean;
  /**
   * This run continues an earlier run of the same turn that was cut short (a
   * crash, a cancel): its read calls answer from the results that run
   * journaled (`journalReads`), as its write calls answer from their records,
   * so a program that read a value and wrote with it writes the same again
   * (answered from its record) instead of reading what its own write left and
   * diverging. Default false: a fresh turn has nothing to answer from, and
   * its reads cost no lookup.
   */
  readonly continuesRun?: boolean;
  /**
   * At this run's first write call, before claiming its slot, remove the
   * session's idempotence records of earlier turns that are older than this
   * many ms, as the store measures it on its own clock (`forgetBefore`: the
   * host's `clock` does not count), so a session keeps the records of its recent
   * turns, not of its whole history. Only for a host whose sessions run one
   * turn at a time, in order, and never run an earlier turn again once a
   * later one has started (the controller's, which passes its
   * `idempotenceRetentionMs`); not where runs of one session overlap. The age
   * is what keeps a stalled host safe: one that took longer than this to
   * notice it lost its session could act again on a write whose record is
   * gone. A failed removal is ignored (the records stay, harmless), as is a
   * store without `forgetBefore`. Default: nothing is removed.
   */
  readonly pruneEarlierTurnsAfterMs?: number;
  /**
   * Called before each write or external call acts (before its slot is
   * claimed, or its record replayed): a rejection stops the call with
   * `TOOL_CANCELLED`, acting nothing. The controller passes its session
   * lease's check, so a host that stalled past its lease cannot act once
   * another host may have taken the session over. Default: none.
   */
  readonly beforeWrite?: () => Promise<void>;
  /**
   * Replaces secrets in what tools give back: applied to every string of a
   * result (map keys included) before the program, the records or the caller
   * see it, and to a failure's message (the failure then drops its `cause`).
   * The controller passes one that replaces its session's known secrets (its
   * models' keys, `createAskLoop({ secrets })`): a tool whose error quotes a
   * key would otherwise hand it to the model and to every record of the
   * turn. Called on every result, so keep it cheap. Default: nothing is
   * replaced.
   */
  readonly redact?: (text: string) => string;
  /**
   * The text `redact` puts where it hid a secret (the controller's:
   * `[REDACTED]`). Once a result of this run had a secret hidden, a write or
   * external call whose arguments hold this text is refused
   * (`TOOL_ARGUMENT_REDACTED`) before it acts: a program that read a file
   * holding a key and wrote it back would otherwise replace the key with the
   * mark. Default: no such check.
   */
  readonly redactionMarker?: string;
  /**
   * True when the run's program itself holds the mark where a secret was hidden (the controller hides a key the
   * model wrote in its reply before the program is parsed): such a write is then refused from the run's first call,
   * as after a result that had one hidden, instead of writing the mark where the program meant the key to go.
   * Default false.
   */
  readonly secretHidden?: boolean;
}

/** Options of one {@link ToolHost.call}. */
export interface ToolCallOptions {
  /** Cancels this call (in addition to the host's `signal`). */
  readonly signal?: AbortSignal;
  /**
   * What is left of the run's wall clock at this call, as the run counts its
   * time (the interpreter passes it: time its calls waited on a busy host is
   * not counted). On a host with a `deadline` the call may run until now +
   * this + `deadlineGraceMs` when that is later than the `deadline`, which a
   * stall of the host would otherwise have made early. It never shortens a call.
   */
  readonly timeLeftMs?: number;
}

/** One audited call (seed 000 §2.13: stamped with session and turn). */
export interface ToolCallRecord {
  readonly session: string;
  readonly turn: number;
  readonly callIndex: number;
  /** Canonical name when known, else the name as written. */
  readonly tool: string;
  readonly outcome: 'ok' | 'replayed' | 'error';
  readonly code?: string;
}

/**
 * The host-side catalogue the static checker uses: the one policy the
 * interpreter consults before a program runs, the same one `call` applies.
 */
export interface HostToolCatalog extends ToolCatalog {
  /**
   * The denial (TOOL_NOT_FOUND, POLICY_*, or a capability code such as
   * HTTP_HOST_DENIED or FS_ESCAPE) for calling `name`, or undefined when the
   * static check passes. When every argument in `args` is known (a literal),
   * the call's scoped capabilities are checked too, exactly as `call` will
   * (`policy.authorize` without counting), so a call refused at run time for
   * its literal arguments is refused before the program runs. A literal
   * argument that can never bind (a type its parameter cannot take, nil for a
   * required one) is `TOOL_ARGUMENT_INVALID` / `TOOL_ARGUMENT_MISSING` here
   * too; argument counts are left to the interpreter's check.
   */
  check(name: string, args?: readonly StaticArgument[]): ToolError | undefined;
  /** Up to three close names the policy allows ("did you mean"). */
  suggest(name: string): readonly string[];
  /** Whether one map argument with these keys binds as named arguments (`bindArguments`' rule). */
  isNamedArgumentMap(name: string, keys: readonly string[]): boolean;
}

/** A per-turn tool host. */
export interface ToolHost {
  readonly catalog: HostToolCatalog;
  /** Calls a tool as written in the script with its evaluated arguments. Rejects with a {@link ToolError}. */
  call(name: string, args: readonly ToolValue[], options?: ToolCallOptions): Promise<ToolValue>;
  /** Every call made through this host so far, in order. */
  log(): readonly ToolCallRecord[];
  /**
   * Books a successful call of `name` that the sandbox worker answered itself
   * (one of `workerLocalTools`), in its place among this host's calls: it takes
   * the next call index, counts in the turn's and the session's counters and
   * is logged, as the same call made here would be. Pure tools are never
   * journaled, so nothing is stored.
   */
  recordLocalCall(name: string): void;
  readonly counters: CallCounters;
}

/**
 * Gives up a claimed idempotence slot after a failure. A store error here must
 * not hide the call's own error; the slot then stays pending, which later
 * replays report as `TOOL_REPLAY_IN_PROGRESS` (never as a second run).
 */
async function releaseQuietly(store: IdempotenceStore | undefined, session: string, turn: number, callIndex: number): Promise<void> {
  if (store === undefined) return;
  await store.release(session, turn, callIndex).catch(() => undefined);
}

/**
 * A call at a recorded position (`key`) must be the call recorded there (`previous`), the same tool with the same
 * arguments: else it is refused (`TOOL_REPLAY_DIVERGED`), acting nothing.
 */
function requireSameCall(spec: ToolSpec, key: Omit<IdempotenceKey, 'tool'>, previous: Pick<IdempotenceKey, 'tool' | 'argumentsJson'>): void {
  if (previous.tool === spec.name && previous.argumentsJson === key.argumentsJson) return;
  throw new ToolError(
    'TOOL_REPLAY_DIVERGED',
    `${spec.displayName}: call ${key.callIndex} of turn ${key.turn} in session ${key.session} was ${previous.tool === spec.name ? spec.displayName : previous.tool} with ${previous.argumentsJson} when recorded, now ${spec.displayName} with ${key.argumentsJson}; refusing to act twice`,
    { tool: spec.displayName },
  );
}

/** One signal that aborts when either does (undefined when neither is given). */
function combineSignals(first: AbortSignal | undefined, second: AbortSignal | undefined): AbortSignal | undefined {
  if (first === undefined) return second;
  if (second === undefined) return first;
  return AbortSignal.any([first, second]);
}

/**
 * The deadline of one call: the run's `deadline`, or — for a call made with
 * `timeLeftMs` — `now` + that + `graceMs` when that is later (a stall of the
 * host, which the run does not count, made the run's deadline early). Exported
 * for a host that answers calls some other way (the controller's replay) and
 * must cut them where a tool host would.
 */
export function callDeadline(deadline: number, timeLeftMs: number | undefined, graceMs: number, now: number): number;
export function callDeadline(deadline: number | undefined, timeLeftMs: number | undefined, graceMs: number, now: number): number | undefined;
export function callDeadline(deadline: number | undefined, timeLeftMs: number | undefined, graceMs: number, now: number): number | undefined {
  if (deadline === undefined || timeLeftMs === undefined) return deadline;
  return Math.max(deadline, now + timeLeftMs + graceMs);
}

/** A call's timeout: its own, cut to the time left before the run's deadline. */
function callTimeout(timeoutMs: number, deadline: number | undefined, clock: Clock): number {
  return deadline === undefined ? timeoutMs : Math.max(0, Math.min(timeoutMs, deadline - clock.now()));
}

/** Creates the tool host for one turn of one session. */
export function createToolHost(options: ToolHostOptions): ToolHost {
  checkToolHostOptions(options);
  const { registry, policy, session, turn } = options;
  // They key every idempotence record: a missing one failed the first write deep in the store ("cannot be bound").
  if (typeof session !== 'string' || session === '') throw new ToolError('TOOL_SPEC_INVALID', `createToolHost(): session must be the session's id, a non-empty text, got ${JSON.stringify(session) ?? String(session)}`);
  // Every write's record and every scratch entry is keyed by it: refused here, not by the store at the first write.
  const unstorable = storedNameProblem(session, 'session id');
  if (unstorable !== undefined) throw new ToolError('TOOL_SPEC_INVALID', `createToolHost(): session ${unstorable}`);
  if (!Number.isSafeInteger(turn) || turn < 0) throw new ToolError('TOOL_SPEC_INVALID', `createToolHost(): turn must be the turn's index, a whole number >= 0, got ${JSON.stringify(turn) ?? String(turn)}`);
  const clock = options.clock ?? systemClock;
  const stores = options.stores ?? {};
  /** Each pack's view of `stores` (its own keys only), made at its first call and kept for the host's life. */
  const packStores = new Map<string, Partial<ToolStores>>();
  const storesFor = (found: RegisteredTool): Partial<ToolStores> => {
    // The built-in memory and scratch tools keep the agent's keys, unscoped; they refuse the keys packs keep.
    if (seesSharedStores(found.definition)) return stores;
    let view = packStores.get(found.pack);
    if (view === undefined) {
      view = scopeStoresToPack(stores, found.pack);
      packStores.set(found.pack, view);
    }
    return view;
  };
  const counters = createCallCounters(options.sessionCounter, options.turnCounter);
  const defaultTimeoutMs = options.defaultTimeoutMs ?? 10_000;
  const maxResultLength = options.maxResultLength ?? DEFAULT_MAX_RESULT_LENGTH;
  const maxResultItems = options.maxResultItems ?? DEFAULT_MAX_RESULT_ITEMS;
  const redact = options.redact;
  /** Whether a secret was hidden from the program or from a result of this run (then a write holding its marker is refused). */
  let hidSecret = options.secretHidden === true;
  const redactResult = (result: ToolValue): ToolValue => {
    if (redact === undefined) return result;
    const shown = redactToolValue(result, redact);
    if (shown !== result) hidSecret = true;
    return shown;
  };
  const records: ToolCallRecord[] = [];
  let nextCallIndex = 0;
  /** Read calls made since the last write acted: journaled once the next write has acted (see `journalReads`). */
  let unjournaled: Omit<IdempotenceRecord, 'recordedAt'>[] = [];
  /**
   * A call a continued run answers from its record was made, and counted, by the run it continues, whose counts were
   * lost with it (the stored turn holds its calls only once decided): counted here, so the turn's and the session's
   * counts are what they would be had the run not been cut — and what a counter rebuilt from the records counts.
   * Never refused: the call already ran. A replay outside a continued run (another host's call at the same position)
   * is not counted.
   */
  const countContinued = (name: string): void => {
    if (options.continuesRun !== true) return;
    countCallIn(counters.turn, name);
    countCallIn(counters.session, name);
  };
  /** A call answered from its record (a write's, or a read the run it continues journaled): it runs nothing. */
  const answerFromRecord = (tool: string, callIndex: number, result: ToolValue): ToolValue => {
    countContinued(tool);
    records.push({ session, turn, callIndex, tool, outcome: 'replayed' });
    // A record another host wrote (an earlier version, one without secrets) is redacted here as a fresh result is.
    return redactResult(result);
  };
  /** Whether this run still has its earlier turns' records to remove (`pruneEarlierTurnsAfterMs`): once, at its first write. */
  let prunes = options.pruneEarlierTurnsAfterMs !== undefined;
  const pruneEarlierTurns = async (store: IdempotenceStore): Promise<void> => {
    if (!prunes) return;
    prunes = false;
    try {
      // The age, not a time: the store measures it on the clock that stamped its records, which may not be this host's.
      await store.forgetBefore?.(session, turn, options.pruneEarlierTurnsAfterMs as number);
    } catch {
      // Housekeeping: a store error must not fail the write; the claim that follows reports a broken store.
    }
  };
  const journalReads = async (store: IdempotenceStore): Promise<void> => {
    const reads = unjournaled;
    unjournaled = [];
    for (const read of reads) await store.record(read);
  };

  const catalog: HostToolCatalog = {
    get: (name): ToolSignature | undefined => registry.get(name),
    names: () => registry.names(),
    check(name, args) {
      let found;
      try {
        found = registry.require(name);
      } catch (error) {
        return error as ToolError;
      }
      const { spec } = found.definition;
      const decision = policy.check(spec);
      if (!decision.ok) {
        // With every argument a literal, the denial can name the scoped grant the call needs; else it names none.
        return scopedDenial(policy, spec, args as readonly (ToolValue | undefined)[] | undefined, decision.error);
      }
      if (args === undefined) return undefined;
      // A literal argument the run time would refuse (wrong type, nil where one is required) is refused now.
      const invalid = literalArgumentError(spec, args as readonly (ToolValue | undefined)[]);
      if (invalid !== undefined) return invalid;
      if (spec.scopes === undefined || args.some((argument) => argument === undefined)) return undefined;
      let bound;
      try {
        bound = bindArguments(spec, copyArguments(spec.displayName, args as ToolValue[]));
      } catch {
        return undefined;
      }
      try {
        const scoped = policy.authorize(spec, bound.args);
        return scoped.ok ? undefined : scoped.error;
      } catch (error) {
        // A scope function refused the arguments (e.g. an fs path with `..`), as it will at run time.
        return wrapToolFailure(error, spec.displayName, found.pack, redact);
      }
    },
    // Suggestions are matched on canonical names but read as the tool's author wrote them (tool.str.ToUpper).
    suggest: (name) =>
      suggestNames(
        canonicalToolName(name),
        registry.names().filter(callableTool(registry, policy)),
      ).map((candidate) => registry.lookup(candidate)?.definition.spec.displayName ?? candidate),
    isNamedArgumentMap(name, keys) {
      const spec = registry.lookup(name)?.definition.spec;
      return spec !== undefined && isNamedArgumentMap(spec, [Object.fromEntries(keys.map((key) => [key, null]))]);
    },
  };

  async function call(name: string, values: readonly ToolValue[], callOptions: ToolCallOptions = {}): Promise<ToolValue> {
    const callIndex = nextCallIndex;
    nextCallIndex += 1;
    let toolName = name;
    let pack: string | undefined;
    try {
      const found = registry.require(name);
      const { spec, handler } = found.definition;
      toolName = spec.name;
      pack = found.pack;
      const cancel = combineSignals(options.signal, callOptions.signal);
      if (cancel?.aborted === true) throw new ToolError('TOOL_CANCELLED', `${spec.displayName} was not started because the run ended`, { tool: spec.displayName });
      const staticDecision = policy.check(spec);
      if (!staticDecision.ok) throw scopedDenial(policy, spec, values, staticDecision.error);
      const bound = bindArguments(spec, copyArguments(spec.displayName, values));
      let decision: PolicyDecision;
      try {
        // No counting yet: a replayed call returns its recorded result without using up a limit.
        decision = policy.authorize(spec, bound.args);
      } catch (error) {
        // A scope function refused the arguments (e.g. an fs path with `..`).
        throw wrapToolFailure(error, spec.displayName, found.pack, redact);
      }
      if (!decision.ok) throw decision.error;
      const marker = options.redactionMarker;
      if (hidSecret && spec.effect !== 'read' && marker !== undefined && marker !== '' && holdsText(values, marker)) {
        throw new ToolError('TOOL_ARGUMENT_REDACTED', `${spec.displayName} was not started: an argument holds ${marker}, which stands where the host hid a secret from an earlier result of this run or from the program itself, and writing it would replace the secret with ${marker}; write only what you change (append a line, set one key) instead of writing back what you read, and never write a key in a program (a tool that needs one reads it itself)`, { tool: spec.displayName });
      }

      if (spec.effect !== 'read' && options.beforeWrite !== undefined) {
        try {
          await options.beforeWrite();
        } catch (error) {
          throw new ToolError('TOOL_CANCELLED', `${spec.displayName} was not started: ${error instanceof Error ? error.message : String(error)}`, { tool: spec.displayName });
        }
      }
      const recorded = spec.effect !== 'read' ? stores.idempotence : undefined;
      // Kept in the idempotence record (the sessions file, or the worker's database) with the known secrets hidden, as
      // the turn's record keeps them: a program that built a key (`"sk-" + …`) and passed it to a write must not leave
      // it there. A run continuing this one hides them alike, so the same call still matches its record.
      // Only a record or a journal keeps it (a write; a read a continuing run looks up, or one journaled): a pure read's
      // went unused, and its text and redaction of a large argument (a list of 100,000 maps) held the host's thread
      // about 0.5 s per call, every session's. Made before the handler runs, which could change its arguments.
      const journalsRead = options.journalReads === true && found.pure !== true;
      const kept = recorded !== undefined || (stores.idempotence !== undefined && (options.continuesRun === true || journalsRead));
      const argumentsJson = kept ? canonicalJson(redact === undefined ? { args: bound.args, rest: bound.rest } : redactToolValue({ args: bound.args, rest: bound.rest } as ToolValue, redact)) : '';
      if (recorded === undefined && options.continuesRun === true && stores.idempotence !== undefined) {
        // A read the cut-short run journaled: what it returned then, which the writes after it acted on.
        const journaled = await stores.idempotence.lookup(session, turn, callIndex);
        if (journaled !== undefined) {
          requireSameCall(spec, { session, turn, callIndex, argumentsJson }, journaled);
          return answerFromRecord(spec.name, callIndex, journaled.result);
        }
      }
      if (recorded !== undefined) {
        await pruneEarlierTurns(recorded);
        // Claim the slot before acting, so two hosts replaying the same turn never both act.
        const claim = await recorded.claim({ session, turn, callIndex, tool: spec.name, argumentsJson });
        if (claim.state !== 'claimed') {
          requireSameCall(spec, { session, turn, callIndex, argumentsJson }, claim.state === 'recorded' ? claim.record : claim);
          if (claim.state === 'pending') {
            throw new ToolError('TOOL_REPLAY_IN_PROGRESS', `${spec.displayName}: call ${callIndex} of turn ${turn} in session ${session} was started and has not finished: another host is running it, or the run that started it was cut short and its outcome is unknown; refusing to act twice`, {
              tool: spec.displayName,
            });
          }
          return answerFromRecord(spec.name, callIndex, claim.record.result);
        }
      }
      try {
        const counted = policy.countCall(spec, counters);
        if (!counted.ok) throw counted.error;
      } catch (error) {
        await releaseQuietly(recorded, session, turn, callIndex);
        throw error;
      }

      const authorize = (capability: string | Capability): void => {
        const error = policy.checkCapability(spec, capability);
        if (error !== undefined) throw error;
      };
      let result: ToolValue;
      try {
        const deadline = callDeadline(options.deadline, callOptions.timeLeftMs, options.deadlineGraceMs ?? 0, clock.now());
        const timeoutMs = callTimeout(spec.timeoutMs ?? defaultTimeoutMs, deadline, clock);
        const raw = await runWithTimeout(
          timeoutMs,
          spec.displayName,
          (signal) => {
            const context: ToolContext = { spec, session, turn, callIndex, clock, signal, maxResultLength, maxResultItems, stores: storesFor(found), policy, registry, rest: bound.rest, authorize };
            return Promise.resolve().then(() => handler(bound.args, context));
          },
          cancel,
        );
        // Amplifying tools refuse before building; this catches every other oversized result, at the first limit
        // it crosses and before copying past it (a 5-million-key map: 36 s of blocked host, copied then measured).
        result = toBoundedToolValue(raw, { tool: spec.displayName, maxItems: maxResultItems, maxLength: maxResultLength });
        result = redactResult(result);
      } catch (error) {
        // A failed call is not recorded: give the slot up so a retry or replay acts again.
        await releaseQuietly(recorded, session, turn, callIndex);
        throw wrapToolFailure(error, spec.displayName, found.pack, redact);
      }
      if (recorded !== undefined) {
        // What this run read before the write, now that the write acted on it: a run continuing this one reads the same.
        let stored;
        try {
          await journalReads(recorded);
          stored = await recorded.record({ session, turn, callIndex, tool: spec.name, argumentsJson, result });
        } catch (error) {
          // The call acted: say so, or a caller reading only "store failed" would think nothing happened and act again.
          const why = error instanceof Error ? error.message : String(error);
          throw new ToolError(isToolError(error) ? error.code : 'STORE_FAILED', `${spec.displayName} acted, but its result could not be recorded (${why}); call ${callIndex} of turn ${turn} in session ${session} stays pending, so a replay of this turn refuses it (TOOL_REPLAY_IN_PROGRESS) rather than act twice`, {
            tool: spec.displayName,
            cause: error,
          });
        }
        result = redactResult(stored.result);
      } else if (journalsRead && stores.idempotence !== undefined) {
        unjournaled.push({ session, turn, callIndex, tool: spec.name, argumentsJson, result });
      }
      records.push({ session, turn, callIndex, tool: spec.name, outcome: 'ok' });
      return result;
    } catch (error) {
      const failure = isToolError(error) ? error : wrapToolFailure(error, toolName, pack ?? 'unknown', redact);
      if (pack !== undefined && failure.pack === undefined) failure.pack = pack;
      records.push({ session, turn, callIndex, tool: toolName, outcome: 'error', code: failure.code });
      if (redact === undefined) throw failure;
      const shown = redactToolFailure(failure, redact);
      if (shown !== failure) hidSecret = true;
      throw shown;
    }
  }

  const recordLocalCall = (name: string): void => {
    const callIndex = nextCallIndex;
    nextCallIndex += 1;
    const tool = registry.lookup(name)?.definition.spec.name ?? name;
    countCallIn(counters.turn, tool);
    countCallIn(counters.session, tool);
    records.push({ session, turn, callIndex, tool, outcome: 'ok' });
  };

  return Object.freeze({ catalog: Object.freeze(catalog), call, log: () => Object.freeze([...records]), counters, recordLocalCall });
}
