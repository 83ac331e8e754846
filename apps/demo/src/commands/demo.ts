import { createInterpreter, createSandboxPool } from '@askloop/interpreter';
import { createScriptedModel } from '@askloop/providers';
import { createDefaultRegistry, createPolicy, createToolHost } from '@askloop/tools';
import { tmpdir } from 'node:os';
import { parseArgs } from 'node:util';
import type { Command, CommandIo } from '../io.ts';
import { DEMO_REPLIES, HOSTILE_ACTIONS } from '../demo/demo-script.ts';
import { runDemoLoop, type DemoTurn } from '../demo/run-demo-loop.ts';

const ALLOW = ['tool.str.*', 'tool.list.*', 'tool.math.*'];

const indent = (text: string) => text.replace(/^/gm, '    ');

function printTurn(io: CommandIo, turn: DemoTurn): void {
  io.stdout(`\n== Turn ${turn.turn} ==\n`);
  io.stdout(`The host sends the envelope:\n${indent(turn.envelope.trimEnd())}\n`);
  io.stdout(`The scripted model replies:\n${indent(turn.reply.trimEnd())}\n`);
  for (const note of turn.recovered) io.stdout(`  recovered: ${note}\n`);
  io.stdout(`Checked before running (tools allowed: ${ALLOW.join(', ')}), then run in a fresh sandbox:\n`);
  for (const emit of turn.run.emits) io.stdout(`  emit    ${emit}\n`);
  for (const [target, text] of Object.entries(turn.run.whispers)) io.stdout(`  whisper ${target}: ${text}\n`);
  io.stdout(`  usage   fuel ${turn.run.usage.fuel}, tool calls ${turn.run.usage.toolCalls}, ${turn.run.usage.wallMs} ms\n`);
  const decision = turn.decision;
  io.stdout(`Decision: ${decision.kind}${decision.kind === 'DONE' ? ` — final result: ${decision.result}` : decision.kind === 'HALT' ? ` — ${decision.reason}` : ''}\n`);
}

/** `askloop demo`: a two-turn AEIOU v4 session with a scripted model. */
export const demoCommand: Command = {
  usage: `Usage: askloop demo

Runs a short AEIOU v4 session with a scripted model: each turn the host
composes the envelope, the model answers with a NeuroScript program, the host
recovers the envelope from the reply, proves the program is allowed before
anything runs, runs it in a fresh isolated-vm sandbox with quotas, and decides
CONTINUE, DONE or HALT. Then shows a program the host refuses to run.
`,
  async run(args, io) {
    parseArgs({ args, options: {}, allowPositionals: false, strict: true });
    const userdata = { subject: 'word count', brief: 'Count the words of the sentence and find the longest.', fields: { sentence: 'the quick brown fox jumps over the lazy dog' } };
    const pool = createSandboxPool();
    try {
      const final = await runDemoLoop({ model: createScriptedModel(DEMO_REPLIES), userdata, allow: ALLOW, maxTurns: 4, onTurn: (turn) => printTurn(io, turn), pool });

      io.stdout(`\n== What the host refuses ==\nA program that would read a file (the fs tools exist, but this agent may not use them):\n${indent(HOSTILE_ACTIONS)}\n`);
      const policy = createPolicy({ allow: ALLOW });
      const registry = createDefaultRegistry({ fs: { root: tmpdir() } });
      const tools = createToolHost({ registry, policy, session: 'demo', turn: 99 });
      const refused = await createInterpreter({ pool }).run(HOSTILE_ACTIONS, { mode: 'agent', tools });
      for (const diagnostic of refused.diagnostics) io.stdout(`  ${diagnostic.line}:${diagnostic.column} ${diagnostic.code} ${diagnostic.message}\n`);
      io.stdout(`  emitted before refusing: ${refused.emits.length === 0 ? 'nothing — no statement ran' : refused.emits.join(' | ')}\n`);
      return final.kind === 'DONE' ? 0 : 1;
    } finally {
      await pool.close();
    }
  },
};
