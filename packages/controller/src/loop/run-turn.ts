/**
 * One turn, step by step: compose → ask the model → extract and prepare
 * (nothing runs yet) → the approval gate → execute → scan and decide. Every
 * phase change is announced (a `phase` event); the record is saved where a
 * resume needs it: `asking` (the envelope sent), the reply (a reply is paid
 * for: it is never asked for again; saved at once when the turn must wait for
 * a slot to run in, else with its next record — or on its own when the turn
 * throws before that record), `executing` (its writes may start),
 * `awaiting-approval` and `decided` (each with the session row, in one
 * transaction). The checked program (`prepared`, an AST many times the size
 * of its source) is never saved: a record continued after a crash or an
 * approval prepares its recorded reply again. A record found in an earlier
 * phase continues from where it stopped; phases that are not saved
 * (`prepared`, `scanning`) are redone from the saved one before them, and a
 * re-executed program replays its write calls from the idempotence records.
 */
import { countCallIn, createCallCounter, createToolHost, localToolsModule, refuseToolsNeedingApproval, workerLocalTools, type ToolRegistry } from '@askloop/tools';
import { callSequential } from '../plugin/call-hook.ts';
import { askDepthRefusal, askRefusal } from '../agent/may-ask.ts';
import { askModel } from './ask-model.ts';
import { gateProgram } from './approval-gate.ts';
import { composeTurn } from './compose-turn.ts';
import { executeTurn, type RunBounds, type ToolFacts } from './execute-turn.ts';
import { finishTurn } from './finish-turn.ts';
import { isoNow, type LoopContext } from './loop-context.ts';
import { prepareTurn } from './prepare-turn.ts';
import { decisionLogEntry } from './decision-log.ts';
import { hideReplySecrets, hideRunSecrets, hidingRunEvents } from './hide-secrets.ts';
import { sharedSystemBase } from './system-text.ts';
import { wallClockLeft } from '../decide/stop-condition.ts';
import { addSpend } from '../decide/turn-spend.ts';
import { leaseConfirmOf } from '../session/lease-scope.ts';
import { sessionAfter } from '../session/session-after.ts';
import { toolsMissing, unknownTools } from './tools-missing.ts';
import { turnContext } from './turn-context.ts';
import type { TurnHistory } from './turn-history.ts';
import type { TurnKind, TurnPhase, TurnRecord } from './turn-record.ts';

/** Runs (or continues) one turn after `history`; returns it decided, or paused for approval. */
export async function runTurn(context: LoopContext, history: TurnHistory, start: TurnKind | TurnRecord): Promise<TurnRecord> {
  const registry: ToolRegistry = await context.toolRegistry();
  const policy = context.policy;
  // The turn's known secrets, read before anything is asked or run: hidden in what tools give back
  // (tool-output-redaction.ts), and in the reply and what the run produced (hide-secrets.ts).
  const turnRedaction = context.toolOutputRedaction?.(context.model);
  const hide = turnRedaction?.redact;
  let record: TurnRecord;
  if (typeof start === 'string') {
    // The system text is the agent's shared text and this turn's budget line, joined once for every turn with the
    // same two parts (`sharedSystemText`): thousands of sessions waiting for their model share one flat copy.
    const systemBase = sharedSystemBase(registry, context.agent, policy);
    record = composeTurn(context, history, start, systemBase);
  } else {
    // A stored reply is prepared as stored: one kept before replies were hidden has its secrets hidden now, as every
    // later run of the turn will see it.
    const reply = start.reply === undefined ? undefined : hideReplySecrets(start.reply, hide);
    record = reply === start.reply ? start : { ...start, reply };
  }
  const base = () => ({ sid: record.sid, loopId: record.loopId, ts: isoNow(context), turnIndex: record.turnIndex });
  /** Whether this record's program passed the check on an earlier step (a turn continued after a crash, or approved). */
  const checkedBefore = typeof start !== 'string' && (start.phase === 'executing' || start.phase === 'awaiting-approval' || start.approval?.state === 'approved');
  /** The record with its reply while only memory holds that reply (it rides with the next saved record). */
  let unsavedReply: TurnRecord | undefined;
  /** Applies `patch` and moves to `phase`, announcing a change; `persist` saves the record first (`'with-session'`: and the session row). */
  const advance = async (patch: Partial<TurnRecord>, phase: TurnPhase = record.phase, persist: 'no' | 'yes' | 'with-session' = 'no'): Promise<void> => {
    const changed = phase !== record.phase;
    record = { ...record, ...patch, phase };
    if (persist !== 'no') {
      // The checked program stays in memory only: it is many times the size of its source, and a resume prepares
      // the recorded reply again (the same parse, checked against the tools and policy of that moment).
      const { prepared: _prepared, ...kept } = record;
      await context.store.saveTurn(kept, persist === 'with-session' ? sessionAfter(history.session, kept, history.tally, isoNow(context)) : undefined);
      unsavedReply = undefined;
    }
    if (changed) context.emit({ type: 'phase', ...base(), phase });
  };
  const save = (patch: Partial<TurnRecord>, phase: TurnPhase = record.phase): Promise<void> => advance(patch, phase, 'yes');
  const timed = (): (() => number) => {
    const started = context.clock.now();
    return () => context.clock.now() - started;
  };

  if (typeof start === 'string') {
    context.emit({ type: 'turn-start', ...base(), kind: record.kind });
    await callSequential(context.hooks, 'turnStart', turnContext(context, record));
    await save({}, 'asking');
  }
  let admitted: (() => void) | undefined;
  if (record.reply === undefined && record.failure === undefined) {
    const elapsed = timed();
    // The loop's wall-clock ceiling bounds the model call too (what the turns before and composing left of it).
    const { ceilings } = context.agent;
    const leftMs = wallClockLeft(history.tally.totals, ceilings, (record.timings.compose ?? 0) + (record.timings.earlier ?? 0));
    const outcome = await askModel({
      model: context.model,
      system: record.system,
      prompt: record.envelope,
      settings: context.agent.settings,
      ...(context.signal === undefined ? {} : { signal: context.signal }),
      onText: (delta) => context.emit({ type: 'model-text', ...base(), delta }),
      ...(context.endGraceMs === undefined ? {} : { endGraceMs: context.endGraceMs }),
      ...(ceilings.wallMs === undefined || leftMs === undefined ? {} : { wallClock: { ceilingMs: ceilings.wallMs, leftMs: Math.max(0, leftMs) } }),
    });
    const timings = { ...record.timings, model: elapsed() };
    if ('failure' in outcome) {
      const { failure, spent } = outcome;
      // A call that streamed part of a reply before it failed was paid for: its estimate counts as a reply's tokens do.
      context.emit({ type: 'call-failed', ...base(), code: failure.code, inputTokens: spent?.inputTokens ?? 0, outputTokens: spent?.outputTokens ?? 0, costUsd: spent?.costUsd ?? 0 });
      // Saved with the decision: a host that dies before asks again.
      await advance({ failure, timings, ...(spent === undefined ? {} : { usage: addSpend(record.usage, spent) }) });
    } else {
      // A key the model wrote is hidden before anything reads the reply: the program that runs is the one stored.
      const reply = hideReplySecrets(outcome.reply, hide);
      // Added to what the turn's earlier calls spent: a turn `resume` reopened after its call failed keeps that spend.
      const usage = addSpend(record.usage, { inputTokens: reply.inputTokens, outputTokens: reply.outputTokens, costUsd: reply.costUsd ?? 0 });
      // Announced before it is saved: the call was made (and billed, which `metrics()` counts from this event) even
      // when the save fails.
      const { text, provider, model, finishReason, inputTokens, outputTokens, latencyMs } = reply;
      // This call's own cost, as its tokens are: the turn's usage may also hold a failed earlier call's (counted by its own event).
      context.emit({ type: 'reply', ...base(), text, provider, model, finishReason, inputTokens, outputTokens, costUsd: reply.costUsd ?? 0, latencyMs });
      // A reply is paid for: it is saved before the turn waits for anything (a slot to run in). A turn admitted at
      // once saves it with its next record (executing, paused or decided) a parse later.
      admitted = context.admission?.tryAcquire();
      await advance({ reply, usage, timings }, record.phase, admitted === undefined ? 'yes' : 'no');
      if (admitted !== undefined) unsavedReply = record;
    }
  }

  // Something to prepare or run: wait for a slot first, holding only the reply text (see run-admission.ts).
  const waits = admitted === undefined && record.failure === undefined && record.reply !== undefined && context.admission !== undefined;
  const release = admitted ?? (waits ? await context.admission?.acquire(context.signal) : undefined);
  if (waits && release === undefined) {
    // Cancelled while waiting: nothing ran, and the decision halts ERR_CANCELLED (the reply is saved: a resume runs it).
    await advance({ failure: { code: 'SCRIPT_ABORTED', kind: 'cancelled', message: 'the caller aborted the loop while the turn waited for a slot to run in' } });
  }
  try {
    // One per run: the run's tool calls and its asks count in it against the policy's per-turn limits. A call an
    // earlier run of this turn left unfinished counts too: it may have acted, and this run makes it again.
    const turnCounter = createCallCounter();
    for (const call of record.earlierUnfinished ?? []) countCallIn(turnCounter, call.name);
    const leaseConfirm = leaseConfirmOf(record.sid);
    // Known secrets out of what tools give back, before the program can pass them to its OUTPUT (tool-output-redaction.ts).
    // A program whose reply had a key hidden holds the mark where the model wrote the key: a write of it is refused
    // (TOOL_ARGUMENT_REDACTED) rather than made with the mark in the key's place.
    const redaction = turnRedaction === undefined ? {} : { redact: turnRedaction.redact, redactionMarker: turnRedaction.redactionMarker, ...(record.reply?.secretsHidden === true ? { secretHidden: true } : {}) };
    // Reads before a write are journaled with it, so a run of this turn continued after a crash reads the same. The
    // first write removes the session's earlier turns' records older than the retention: one turn runs at a time and
    // none runs again, but a host that stalled mid-turn past its lease may still be running one (see ask-loop.ts).
    const hostOptions = {
      registry,
      policy,
      stores: context.toolStores,
      session: record.sid,
      turn: record.turnIndex,
      sessionCounter: context.sessionCounter,
      turnCounter,
      clock: context.clock,
      journalReads: true,
      // Before a write acts, the session's lease is known held (renewed first when a stall held its renewals back).
      ...(leaseConfirm === undefined ? {} : { beforeWrite: leaseConfirm }),
      ...redaction,
      ...(context.idempotenceRetentionMs !== undefined && Number.isFinite(context.idempotenceRetentionMs) ? { pruneEarlierTurnsAfterMs: context.idempotenceRetentionMs } : {}),
    };
    // The catalogue the check asks; the run gets its own host, bound to the run's signal and deadline.
    const host = createToolHost(hostOptions);
    if (record.failure === undefined && record.prepared === undefined && record.reply !== undefined) {
      const elapsed = timed();
      // `ask` only where the controller offers it and the agent lists someone to ask; a literal name is checked here.
      const mayAsk = context.ask !== undefined && context.agent.asks.length > 0 ? (agent: string) => askRefusal(context.agent, agent) : undefined;
      // A child loop of `ask` cannot pause for a person: tools that need approval are refused before anything runs.
      const catalog = context.noApprover === true ? refuseToolsNeedingApproval(host.catalog, registry, "the loop of an 'ask'", 'its asker cannot wait for a person: do the work without it, or say in OUTPUT that a person must do it') : host.catalog;
      const patch = await prepareTurn(context.interpreter, record.reply.text, catalog, mayAsk, mayAsk === undefined ? askDepthRefusal(context.agent, context.ask !== undefined) : undefined);
      // A program the check accepted before (it was executing, or paused for approval) that this host finds tools
      // missing for: the host lacks a plugin or an MCP server, not the model a tool. Halting would end the session
      // for good; it waits, untouched, for a host that has them.
      const missing = checkedBefore ? unknownTools(patch) : [];
      if (missing.length > 0) throw toolsMissing(record, missing, 'nothing ran and nothing was saved');
      // Not saved: a resume prepares again from the saved reply.
      await advance({ ...patch, timings: { ...record.timings, prepare: elapsed() } }, 'prepared');
      context.emit({ type: 'prepared', ...base(), actions: record.actions ?? '', diagnostics: record.diagnostics, ok: record.failure === undefined });
    }

    const prepared = record.prepared;
    if (record.failure === undefined && prepared !== undefined && record.approval?.state !== 'approved') {
      const gated = await gateProgram(context.hooks, registry, prepared, turnContext(context, record));
      // The loop of an `ask` has no one to wait for: a plugin's gate holding its program is a no, decided in this
      // turn (fed back under `repair`, else a halt). Paused, it was left `running` for good once its asker went on.
      const answer = gated.kind === 'require-approval' && context.noApprover === true
        ? { kind: 'deny' as const, message: `${gated.message} (held for a person's approval, which the loop of an 'ask' cannot wait for: its asker goes on without it; do the work without the held step, or say in OUTPUT that a person must do it)` }
        : gated;
      if (answer.kind === 'deny') {
        await advance({ approval: { state: 'denied', message: answer.message, decidedAt: isoNow(context) }, failure: { code: 'LOOP_APPROVAL_DENIED', kind: 'approval', message: answer.message } });
      } else if (answer.kind === 'require-approval') {
        const decision = { kind: 'PAUSE', reason: 'AWAITING_APPROVAL', message: answer.message } as const;
        await advance({ approval: { state: 'pending', message: answer.message }, decision }, 'awaiting-approval', 'with-session');
        context.emit({ type: 'approval-required', ...base(), message: answer.message });
        // The pause is a decision of its own, logged as every decision is; the turn's own decision follows its answer.
        // The record as saved: without the checked program, which stays in memory only.
        const { prepared: _checked, ...paused } = record;
        context.emit({ type: 'decision', ...base(), decision, log: decisionLogEntry(paused), record: paused });
        return record;
      }
    }

    if (record.failure === undefined && prepared !== undefined) {
      await save({}, 'executing');
      const elapsed = timed();
      // A stored turn run again (after a crash, a cancel) answers its earlier run's journaled reads as it does its writes.
      const continuesRun = typeof start !== 'string';
      const toolsFor = (bounds: RunBounds) => context.replayTools?.(record, host.catalog, bounds) ?? createToolHost({ ...hostOptions, ...bounds, continuesRun });
      // The catalogue's spelling of each tool, for the record's readers (the run reports canonical names), and its
      // declared effect, for a call still out when the run ended (it may have acted).
      const toolFacts = (name: string): ToolFacts => {
        const spec = registry.get(name);
        return spec === undefined ? {} : { displayName: spec.displayName, effect: spec.effect };
      };
      // Pure built-in tools the sandbox worker answers itself, booked on the run's tool host; a replay answers every
      // call from its record, so there none is.
      const localNames = context.replayTools === undefined ? workerLocalTools(registry, policy, prepared.approvedTools) : [];
      // With the secrets the tool host hides, as fingerprints: a result holding one is the host's to hide.
      const localTools = localNames.length === 0 ? undefined : { module: localToolsModule(), names: localNames, ...(turnRedaction === undefined ? {} : { secrets: turnRedaction.fingerprints }) };
      // What the program built of a secret itself (`"sk-" + …`) is hidden before the digest is taken and OUTPUT scanned.
      // Its events as it goes (emits, whispers, tool calls) hide them too: they are the run the record keeps.
      const runContext = hide === undefined ? context : { ...context, emit: hidingRunEvents(context.emit, hide) };
      const { fuel, toolCallCount, ...patch } = hideRunSecrets(await executeTurn(runContext, record, prepared, toolsFor, history.tally.totals, turnCounter, toolFacts, localTools), hide);
      // Not saved: the decided record follows at once (a host that dies before re-runs the program, its writes replayed).
      await advance({ ...patch, usage: { ...record.usage, fuel, toolCalls: toolCallCount }, timings: { ...record.timings, execute: elapsed() } }, 'scanning');
    }
  } catch (error) {
    // The host lives on (a hook or the interpreter threw): the paid-for reply is saved before the error goes up, so
    // a resume goes on from it instead of asking the model again. Best effort: the store may be what failed.
    if (unsavedReply !== undefined) {
      const { prepared: _prepared, ...kept } = unsavedReply;
      await context.store.saveTurn(kept).catch(() => undefined);
    }
    throw error;
  } finally {
    release?.();
  }
  return finishTurn(context, history, record);
}
