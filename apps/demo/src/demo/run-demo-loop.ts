/**
 * The demo's loop: a small, readable version of one AEIOU v4 session, from
 * the real packages — envelope codec, scripted provider, static check and
 * sandboxed run, tool host and policy. (The full controller, with ceilings,
 * single flight and the decision log, is `@askloop/controller`'s job.)
 */
import { composeEnvelope, extractEnvelope, neutralizeMarkerLines, progressDigest, ProgressTracker, scanDoneMarker } from '@askloop/envelope';
import { createInterpreter, type JsonValue, type RunResult, type SandboxRunner } from '@askloop/interpreter';
import type { LanguageModel } from '@askloop/providers';
import { AEIOU_V4_AI_RULES, createDefaultRegistry, createPolicy, createToolHost } from '@askloop/tools';

/** What happened in one turn, for printing. */
export interface DemoTurn {
  turn: number;
  envelope: string;
  reply: string;
  recovered: string[];
  actions: string;
  run: RunResult;
  decision: { kind: 'CONTINUE' } | { kind: 'DONE'; result: string | null } | { kind: 'HALT'; reason: string };
}

/** Runs turns until DONE or HALT (at most `maxTurns`), reporting each as it ends. */
export async function runDemoLoop(options: {
  model: LanguageModel;
  userdata: Record<string, unknown>;
  allow: readonly string[];
  maxTurns: number;
  onTurn: (turn: DemoTurn) => void;
  /** The sandbox pool the turns run in (the caller owns and closes it). */
  pool: SandboxRunner;
}): Promise<DemoTurn['decision']> {
  const registry = createDefaultRegistry();
  // One policy: each turn's tool host answers the static check (its catalogue) and authorizes the calls.
  const policy = createPolicy({ allow: [...options.allow] });
  const interpreter = createInterpreter({ pool: options.pool });
  const tracker = new ProgressTracker();
  let output = '';
  let scratchpad = '';
  for (let turn = 1; turn <= options.maxTurns; turn += 1) {
    const envelope = composeEnvelope({
      userdata: options.userdata,
      scratchpad: neutralizeMarkerLines(scratchpad),
      output: neutralizeMarkerLines(output),
      actions: '(write exactly one command … endcommand block here)',
    });
    const reply = await options.model.generate({ system: AEIOU_V4_AI_RULES, prompt: envelope });
    const { envelope: answer, lints } = extractEnvelope(reply.text);
    const tools = createToolHost({ registry, policy, session: 'demo', turn });
    const run = await interpreter.run(answer.actions, { mode: 'agent', tools, catalog: tools.catalog, userdata: options.userdata as JsonValue });
    let decision: DemoTurn['decision'];
    if (run.diagnostics.some((diagnostic) => diagnostic.severity === 'error')) decision = { kind: 'HALT', reason: 'ERR_PERMISSIONS: the program failed its checks and did not run' };
    else if (run.error !== null) decision = { kind: 'HALT', reason: `${run.error.code}: ${run.error.message}` };
    else {
      const done = scanDoneMarker(run.emits);
      if (done.done) decision = { kind: 'DONE', result: done.result };
      else if (tracker.record(progressDigest(run.output, run.scratchpad))) decision = { kind: 'HALT', reason: 'ERR_NO_PROGRESS' };
      else decision = { kind: 'CONTINUE' };
    }
    options.onTurn({ turn, envelope, reply: reply.text, recovered: lints.map((lint) => `${lint.code}: ${lint.message}`), actions: answer.actions, run, decision });
    if (decision.kind !== 'CONTINUE') return decision;
    output = run.output.trimEnd();
    scratchpad = run.scratchpad.trimEnd();
  }
  return { kind: 'HALT', reason: 'ERR_MAX_TURNS_EXCEEDED' };
}
