/**
 * The conformance suite: one folder per case with `agent.json` (the agent
 * definition), `replies.json` (the scripted model's replies, in the shorthand
 * of `expandReplies`), `expected.json` (decisions per turn, the final status,
 * reason and result, and checks on the stored turn records) and optionally
 * `input.json` (`task`, and `approvals` to answer pauses with). Every case
 * runs end to end through `createAskLoop` with the real sandbox, tools and a
 * store — once on the memory store and once on a SQLite file (which then
 * holds the tools' records too) — and is then replayed, which must reproduce
 * it exactly. OpenTelemetry spans are made on every case, and no hook may fail.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandboxPool } from '@askloop/interpreter';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../src/agent/agent-definition.ts';
import type { LoopResult } from '../../src/ask-loop.ts';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createAskLoop } from '../../src/create-ask-loop.ts';
import type { LoopEvent } from '../../src/events/loop-event.ts';
import { otelPlugin } from '../../src/events/otel-plugin.ts';
import type { TurnRecord } from '../../src/loop/turn-record.ts';
import { tallyOf } from '../../src/decide/loop-tally.ts';
import { loopResult } from '../../src/loop/loop-result.ts';
import { createMemoryTranscriptStore } from '../../src/store/memory-transcript-store.ts';
import { createSqliteTranscriptStore } from '../../src/store/sqlite-transcript-store.ts';
import type { TranscriptStore } from '../../src/store/transcript-store.ts';
import { expandReplies, testPlugin, type CaseReply } from '../test-plugin.ts';
import { CONFORMANCE_CASES, readCaseFile } from './conformance-cases.ts';

interface TurnCheck {
  readonly turn: number;
  readonly kind?: string;
  readonly envelopeIncludes?: readonly string[];
  readonly envelopeExcludes?: readonly string[];
  readonly outputIncludes?: readonly string[];
  readonly outputExcludes?: readonly string[];
  readonly systemIncludes?: readonly string[];
  readonly replyExcludes?: readonly string[];
  readonly lints?: readonly string[];
  readonly failure?: string;
  readonly emits?: readonly string[];
  readonly toolCalls?: number;
  readonly approval?: string;
}

interface Expected {
  readonly status: LoopResult['status'];
  readonly reason: string | null;
  readonly result?: string | null;
  readonly resultIncludes?: readonly string[];
  /** The code of the result's `failure` (the last turn's), or null for none. */
  readonly failure?: string | null;
  /** Per decided turn: `DONE`, `CONTINUE`, `CONTINUE:<next>`, `HALT:<reason>`, `PAUSE:<reason>`. */
  readonly decisions: readonly string[];
  /** Statuses and reasons seen before each approval answer, e.g. `PAUSED:AWAITING_APPROVAL`. */
  readonly pauses?: readonly string[];
  readonly turns?: readonly TurnCheck[];
}

interface Input {
  readonly task?: string | Record<string, unknown>;
  readonly approvals?: readonly ('approve' | 'deny')[];
}

const cases = CONFORMANCE_CASES;
const read = readCaseFile;

const pool = createSandboxPool({ workers: 2 });
const dir = mkdtempSync(join(tmpdir(), 'askloop-conformance-'));
afterAll(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The stores every case runs on: the runner is the same, only the store differs. */
const stores: Record<string, (name: string) => TranscriptStore> = {
  memory: () => createMemoryTranscriptStore(),
  sqlite: (name) => createSqliteTranscriptStore(join(dir, `${name}.db`)),
};

const label = (record: TurnRecord): string => {
  const decision = record.decision;
  if (decision === undefined) return `(${record.phase})`;
  if (decision.kind === 'HALT' || decision.kind === 'PAUSE') return `${decision.kind}:${decision.reason}`;
  if (decision.kind === 'CONTINUE' && decision.next !== undefined) return `CONTINUE:${decision.next}`;
  return decision.kind;
};

function checkTurn(record: TurnRecord | undefined, check: TurnCheck): void {
  expect(record, `turn ${check.turn} exists`).toBeDefined();
  const turn = record as TurnRecord;
  const where = `turn ${check.turn}`;
  if (check.kind !== undefined) expect(turn.kind, where).toBe(check.kind);
  for (const text of check.envelopeIncludes ?? []) expect(turn.envelope, `${where} envelope`).toContain(text);
  for (const text of check.envelopeExcludes ?? []) expect(turn.envelope, `${where} envelope`).not.toContain(text);
  for (const text of check.outputIncludes ?? []) expect(turn.output, `${where} output`).toContain(text);
  for (const text of check.outputExcludes ?? []) expect(turn.output, `${where} output`).not.toContain(text);
  for (const text of check.systemIncludes ?? []) expect(turn.system, `${where} system`).toContain(text);
  for (const text of check.replyExcludes ?? []) expect(turn.reply?.text ?? '', `${where} reply`).not.toContain(text);
  for (const code of check.lints ?? []) expect(turn.lints.map((lint) => lint.code), `${where} lints`).toContain(code);
  if (check.failure !== undefined) expect(turn.failure?.code, `${where} failure`).toBe(check.failure);
  if (check.emits !== undefined) expect(turn.emits, `${where} emits`).toEqual(check.emits);
  if (check.toolCalls !== undefined) expect(turn.toolCalls.length, `${where} tool calls`).toBe(check.toolCalls);
  if (check.approval !== undefined) expect(turn.approval?.state, `${where} approval`).toBe(check.approval);
}

describe.each(Object.keys(stores))('conformance on the %s store', (storeName) => {
  it.each(cases)('%s', async (name) => {
    const agent = read<AgentDefinition>(name, 'agent.json');
    const replies = read<CaseReply[]>(name, 'replies.json');
    const expected = read<Expected>(name, 'expected.json');
    const input = read<Input>(name, 'input.json', {});
    const store = (stores[storeName] as (name: string) => TranscriptStore)(name);
    // Spans ride along on every case: the listener must follow every flow (halts, pauses, repairs, replays) without a hook error.
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('conformance');
    const hookErrors: string[] = [];
    const onEvent = (event: LoopEvent) => {
      if (event.type === 'hook-error') hookErrors.push(`${event.plugin}.${event.hook}: ${event.message}`);
    };
    const loop = createAskLoop({ plugins: [testPlugin({ case: expandReplies(replies) }), otelPlugin({ tracer })], store, pool, onEvent });
    let result = await loop.run({ agent: { ...agent, model: agent.model ?? 'scripted:case' }, task: (input.task ?? 'conformance') as string });
    const pauses: string[] = [];
    for (const answer of input.approvals ?? []) {
      pauses.push(`${result.status}:${result.reason}`);
      result = answer === 'approve' ? await loop.approve(result.sid) : await loop.deny(result.sid, { note: 'not today' });
    }
    const records = await store.listTurns(result.sid);
    // The result a step builds from the session's tally is the one the records give, and so is the stored tally.
    expect(result).toEqual(loopResult(result.sid, records, agent.dialect ?? 'v4'));
    const session = await store.getSession(result.sid);
    if (session?.tally !== undefined) expect(session.tally).toEqual(tallyOf(records.filter((record) => record.phase === 'decided')));
    expect(records.map(label)).toEqual(expected.decisions);
    expect(result.decisions.map((decision) => decision.decision)).toEqual(expected.decisions.map((decision) => decision.split(':')[0]));
    expect({ status: result.status, reason: result.reason }).toEqual({ status: expected.status, reason: expected.reason });
    if (expected.result !== undefined) expect(result.result).toBe(expected.result);
    for (const text of expected.resultIncludes ?? []) expect(result.result ?? '').toContain(text);
    // Every HALT and PAUSE says why in words; the failure is the last decided turn's, whatever the case checks.
    expect(result.message !== null && result.message.length > 0).toBe(result.status === 'HALT' || result.status === 'PAUSED');
    expect(result.failure).toEqual(records.filter((record) => record.decision !== undefined).at(-1)?.failure ?? null);
    if (expected.failure !== undefined) expect(result.failure?.code ?? null).toBe(expected.failure);
    if (expected.pauses !== undefined) expect(pauses).toEqual(expected.pauses);
    for (const check of expected.turns ?? []) checkTurn(records.find((record) => record.turnIndex === check.turn), check);
    // Every record is plain JSON and carries no key.
    expect(JSON.stringify(records)).not.toMatch(/sk-[A-Za-z0-9]{8,}/);

    const replay = await loop.replay(result.sid);
    expect(replay.divergence).toBeNull();
    expect(replay.matched).toBe(true);
    expect(replay.turns).toBe(records.length);
    expect(hookErrors).toEqual([]);
    const spanNames = exporter.getFinishedSpans().map((span) => span.name);
    expect(spanNames.filter((name) => name.startsWith('turn ')).length).toBeGreaterThanOrEqual(records.length);
    expect(spanNames).toContain(`invoke_agent ${agent.name}`);
    await loop.close();
  });
});

// The docs quote the number of cases; a case added without them made both say 62 of 65.
describe('the conformance cases as the docs count them', () => {
  it('are as many as packages/controller/README.md and ARCHITECTURE.md say', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const architecture = readFileSync(new URL('../../../../ARCHITECTURE.md', import.meta.url), 'utf8');
    expect(Number(/— (\d+) cases covering/.exec(readme)?.[1])).toBe(CONFORMANCE_CASES.length);
    expect(Number(/(\d+) conformance cases replayed/.exec(architecture)?.[1])).toBe(CONFORMANCE_CASES.length);
  });
});
