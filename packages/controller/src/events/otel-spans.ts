/**
 * Loop events → OpenTelemetry spans after the GenAI semantic conventions:
 * one `invoke_agent {agent}` span per driver call (run, resume, step…), a
 * child span per turn, under it a `chat {model}` span per model call (request
 * and response model, token usage, finish reasons) and an
 * `execute_tool {tool}` span per tool call; the loop of an `ask` statement
 * nests under the turn that runs it. Spans carry ids, names, counts
 * and codes only — never the prompt, the reply, tool arguments or results,
 * and so never a key.
 *
 * This file takes the OpenTelemetry API as an argument (see `otel-plugin.ts`,
 * which loads the optional peer lazily); its import of `@opentelemetry/api`
 * is types only, so the controller loads without the package.
 */
import type * as OtelApi from '@opentelemetry/api';
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import { splitModelId } from '../agent/split-model-id.ts';
import type { LoopEvent, LoopEventListener } from './loop-event.ts';

/** The parts of `@opentelemetry/api` the listener calls. */
export type OtelApiSubset = Pick<typeof OtelApi, 'context' | 'trace' | 'SpanKind' | 'SpanStatusCode'>;

interface TurnSpans {
  readonly span: Span;
  readonly context: Context;
  chat?: Span;
}

interface LoopSpans {
  readonly span: Span;
  readonly context: Context;
  readonly sid: string;
  readonly provider: string;
  readonly requestModel: string;
  readonly turns: Map<number, TurnSpans>;
}

/** A listener that turns every loop event it sees into spans on `tracer`. */
export function createOtelListener(api: OtelApiSubset, tracer: Tracer): LoopEventListener {
  const loops = new Map<string, LoopSpans>();
  const openBySid = new Map<string, LoopSpans>();

  function loopOf(event: LoopEvent): LoopSpans | undefined {
    // A turn continued by a later call (approve, resume) reports the loop id of the call that started it.
    return loops.get(event.loopId) ?? openBySid.get(event.sid);
  }

  function turnOf(event: LoopEvent & { readonly turnIndex: number }): TurnSpans {
    const loop = loopOf(event);
    const found = loop?.turns.get(event.turnIndex);
    if (found !== undefined) return found;
    // A turn continued without a turn-start (after an approval or a crash) still gets its span.
    const parent = loop?.context ?? api.context.active();
    const span = tracer.startSpan(`turn ${event.turnIndex}`, { kind: api.SpanKind.INTERNAL, attributes: { 'gen_ai.conversation.id': event.sid, 'askloop.turn.index': event.turnIndex } }, parent);
    const turn: TurnSpans = { span, context: api.trace.setSpan(parent, span) };
    loop?.turns.set(event.turnIndex, turn);
    return turn;
  }

  function fail(span: Span, errorType: string, message?: string): void {
    span.setAttribute('error.type', errorType);
    span.setStatus({ code: api.SpanStatusCode.ERROR, ...(message === undefined ? {} : { message }) });
  }

  function endTurn(loop: LoopSpans | undefined, turnIndex: number, turn: TurnSpans): void {
    turn.chat?.end();
    turn.span.end();
    loop?.turns.delete(turnIndex);
  }

  /** Ends the loop's open turns and its span (with `errorType` on each when the call failed) and forgets it. */
  function closeLoop(loop: LoopSpans, event: LoopEvent, errorType?: string): void {
    for (const [turnIndex, turn] of loop.turns) {
      if (errorType !== undefined) fail(turn.span, errorType);
      endTurn(loop, turnIndex, turn);
    }
    if (errorType !== undefined) fail(loop.span, errorType);
    loop.span.end();
    loops.delete(event.loopId);
    if (openBySid.get(event.sid) === loop) openBySid.delete(event.sid);
  }

  return (event) => {
    switch (event.type) {
      case 'loop-start': {
        const { provider, model } = splitModelId(event.model);
        // A child loop of `ask` nests under the parent's turn that is running the statement: one trace.
        const asking = event.parentSid === undefined ? undefined : openBySid.get(event.parentSid);
        const parent = asking === undefined ? api.context.active() : ([...asking.turns.values()].at(-1)?.context ?? asking.context);
        const attributes: Attributes = {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.name': event.agent,
          'gen_ai.conversation.id': event.sid,
          'gen_ai.request.model': model,
          'askloop.loop.id': event.loopId,
          'askloop.resumed': event.resumed,
        };
        if (provider !== '') attributes['gen_ai.provider.name'] = provider;
        const span = tracer.startSpan(`invoke_agent ${event.agent}`, { kind: api.SpanKind.INTERNAL, attributes }, parent);
        const loop: LoopSpans = { span, context: api.trace.setSpan(parent, span), sid: event.sid, provider, requestModel: model, turns: new Map() };
        loops.set(event.loopId, loop);
        openBySid.set(event.sid, loop);
        return;
      }
      case 'turn-start':
        turnOf(event).span.setAttribute('askloop.turn.kind', event.kind);
        return;
      case 'phase': {
        const turn = turnOf(event);
        turn.span.addEvent('askloop.phase', { 'askloop.phase': event.phase });
        const loop = loopOf(event);
        if (event.phase === 'asking' && turn.chat === undefined) {
          const model = loop?.requestModel ?? '';
          const attributes: Attributes = { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': model, 'gen_ai.conversation.id': event.sid };
          if (loop !== undefined && loop.provider !== '') attributes['gen_ai.provider.name'] = loop.provider;
          turn.chat = tracer.startSpan(`chat ${model}`, { kind: api.SpanKind.CLIENT, attributes }, turn.context);
        }
        return;
      }
      case 'reply': {
        const turn = turnOf(event);
        turn.chat?.setAttributes({
          'gen_ai.response.model': event.model,
          'gen_ai.response.finish_reasons': [event.finishReason],
          'gen_ai.usage.input_tokens': event.inputTokens,
          'gen_ai.usage.output_tokens': event.outputTokens,
        });
        turn.chat?.end();
        delete turn.chat;
        return;
      }
      case 'call-failed': {
        // The span fails with the turn's decision; what the call is estimated to have cost is its usage meanwhile.
        if (event.inputTokens + event.outputTokens > 0) turnOf(event).chat?.setAttributes({ 'gen_ai.usage.input_tokens': event.inputTokens, 'gen_ai.usage.output_tokens': event.outputTokens });
        return;
      }
      case 'prepared':
        turnOf(event).span.addEvent('askloop.prepared', { 'askloop.program.ok': event.ok, 'askloop.diagnostics': event.diagnostics.map((diagnostic) => diagnostic.code) });
        return;
      case 'approval-required':
        turnOf(event).span.addEvent('askloop.approval_required');
        return;
      case 'tool-call': {
        const { call } = event;
        const turn = turnOf(event);
        // The event comes when the call has finished: the span starts its duration earlier.
        const span = tracer.startSpan(
          `execute_tool ${call.name}`,
          {
            kind: api.SpanKind.INTERNAL,
            startTime: Date.now() - call.durationMs,
            attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': call.name, 'gen_ai.tool.type': 'function', 'gen_ai.tool.call.id': `${event.sid}/${event.turnIndex}/${call.index}` },
          },
          turn.context,
        );
        if (call.error !== undefined) fail(span, call.error.code);
        // Still out when the run ended: it may have acted, and nothing of it reached the program.
        if (call.unfinished !== undefined) {
          span.setAttribute('askloop.tool.unfinished', true);
          if (call.error === undefined) fail(span, 'TOOL_UNFINISHED');
        }
        span.end();
        return;
      }
      case 'decision': {
        const turn = turnOf(event);
        const { decision, record } = event;
        if (turn.chat !== undefined && record.failure?.kind === 'provider') fail(turn.chat, record.failure.code);
        const attributes: Attributes = { 'askloop.decision': decision.kind, 'askloop.turn.kind': record.kind, 'askloop.output_bytes': event.log.output_bytes, 'askloop.scratch_bytes': event.log.scratch_bytes };
        if (record.failure !== undefined) attributes['askloop.failure.code'] = record.failure.code;
        if (decision.kind === 'HALT' || decision.kind === 'PAUSE') attributes['askloop.reason'] = decision.reason;
        turn.span.setAttributes(attributes);
        if (decision.kind === 'HALT') fail(turn.span, decision.reason);
        endTurn(loopOf(event), event.turnIndex, turn);
        return;
      }
      case 'hook-error':
        loopOf(event)?.span.addEvent('askloop.hook_error', { 'askloop.plugin': event.plugin, 'askloop.hook': event.hook });
        return;
      case 'loop-end': {
        const loop = loopOf(event);
        if (loop === undefined) return;
        const { result } = event;
        loop.span.setAttributes({
          'askloop.status': result.status,
          'askloop.turns': result.turns,
          'gen_ai.usage.input_tokens': result.usage.inputTokens,
          'gen_ai.usage.output_tokens': result.usage.outputTokens,
          ...(result.reason === null ? {} : { 'askloop.reason': result.reason }),
        });
        if (result.status === 'HALT') fail(loop.span, result.reason ?? 'HALT');
        // A turn paused for approval has no decision event in this call: closing the loop closes it.
        closeLoop(loop, event);
        return;
      }
      case 'loop-error': {
        // The call threw: no loop-end comes, so its spans end here (else they stay open and the maps keep them).
        const loop = loopOf(event);
        if (loop === undefined) return;
        closeLoop(loop, event, event.code);
        return;
      }
      default:
        // model-text, emit, whisper: content, deliberately not recorded.
        return;
    }
  };
}
