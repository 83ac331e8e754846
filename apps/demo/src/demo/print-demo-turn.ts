/**
 * The demo's narration: each decided turn from its stored record — the
 * envelope the host sent, the model's reply, envelope recovery, the check
 * before anything ran (or the refusal), tool calls, OUTPUT and SCRATCHPAD,
 * and the decision.
 */
import type { LoopEventListener, TurnRecord } from '@askloop/controller';
import type { CommandIo } from '../io.ts';
import { stdoutText } from '../loop/print-loop-result.ts';

const indent = (text: string): string => text.trimEnd().replace(/^/gm, '    ');
const short = (value: unknown): string => {
  const text = JSON.stringify(value) ?? 'nil';
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
};

function printTurn(io: CommandIo, record: TurnRecord, modelLabel: string): void {
  io.stdout(`\n== Turn ${record.turnIndex}${record.kind === 'normal' ? '' : ` (${record.kind} turn)`} ==\n`);
  io.stdout(`The host sends the envelope:\n${indent(record.envelope)}\n`);
  if (record.reply !== undefined) io.stdout(`${modelLabel} replies:\n${indent(record.reply.text)}\n`);
  for (const lint of record.lints) io.stdout(`  recovered: ${lint.code}: ${lint.message}\n`);
  const errors = record.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  if (errors.length > 0) {
    io.stdout('Refused before running — nothing of the program ran:\n');
    for (const diagnostic of errors) io.stdout(`  ${diagnostic.line}:${diagnostic.column} ${diagnostic.code} ${diagnostic.message}\n`);
  } else if (record.actions !== undefined) {
    io.stdout('Checked against the policy before running, then run in a fresh sandbox:\n');
  }
  for (const call of record.toolCalls) io.stdout(`  tool    ${call.displayName ?? call.name}(${call.args.map(short).join(', ')}) → ${call.unfinished !== undefined ? 'unfinished (may have acted)' : call.error === undefined ? short(call.result) : `${call.error.code}`}\n`);
  const fedBack = record.decision?.kind === 'CONTINUE' ? ' (fed back next turn)' : '';
  if (record.output !== '') io.stdout(`OUTPUT${fedBack}:\n${indent(record.output)}\n`);
  if (record.scratchpad !== '') io.stdout(`SCRATCHPAD:\n${indent(record.scratchpad)}\n`);
  const decision = record.decision;
  if (decision === undefined) return;
  const detail = decision.kind === 'DONE' ? ` — final result: ${decision.result}` : decision.kind === 'HALT' || decision.kind === 'PAUSE' ? ` — ${decision.reason}` : decision.next === undefined ? '' : ` — next: a ${decision.next} turn`;
  io.stdout(`Decision: ${decision.kind}${detail}\n`);
}

/**
 * A listener printing each turn once it is decided. `modelLabel` names the
 * model ("The scripted model"). On a terminal the text is made safe first: a
 * real model's reply, OUTPUT and results could carry control characters.
 */
export function printDemoTurns(io: CommandIo, modelLabel: string): LoopEventListener {
  const out: CommandIo = { ...io, stdout: (text) => io.stdout(stdoutText(io, text)) };
  return (event) => {
    if (event.type === 'decision') printTurn(out, event.record, modelLabel);
  };
}
