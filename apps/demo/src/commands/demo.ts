/**
 * `askloop demo [--model PROVIDER:MODEL] [--db FILE] [--json]`: a
 * Plan → Apply task through the real controller, sandbox, tools and store, with
 * the embedded scripted model (no API key, no network) or a real one.
 */
import { parseArgs } from 'node:util';
import type { Command } from '../io.ts';
import { DEMO_MODEL, DEMO_REPLIES, DEMO_TASK, demoAgent } from '../demo/demo-script.ts';
import { printDemoTurns } from '../demo/print-demo-turn.ts';
import { agentFromOptions } from '../loop/agent-options.ts';
import { resolveDbPath } from '../loop/default-db-path.ts';
import { driveSession } from '../loop/drive-session.ts';
import { openSessionLoop, openSessionStore } from '../loop/open-session-loop.ts';
import { LOOP_EXIT_USAGE } from '../loop/session-options.ts';

/** `askloop demo`. */
export const demoCommand: Command = {
  usage: `Usage: askloop demo [--model PROVIDER:MODEL] [--db FILE] [--json]

Runs a Plan → Apply task through the real controller, sandbox, tools
and sessions file: turn 1 inspects its capabilities and emits a plan without
writing; turn 2 applies it with tool.memory.CAS (and its program has a
mistake, fed back as a SYSTEM_ERROR line); turn 3's program is refused before
any of it runs (a tool the agent may not use); turn 4 verifies and finishes
with <<<LOOP:DONE>>>. Each turn shows the envelope the host sent, the reply,
the check, the tool calls, OUTPUT and the decision.

The model is a scripted one shipped with askloop (its replies are real
NeuroScript in real envelopes): no API key, no network. With --model the same
task runs against a real model, e.g. openai:gpt-4.1-mini (OPENAI_API_KEY),
anthropic:claude-sonnet-4-5 (ANTHROPIC_API_KEY), google:gemini-2.5-flash
(GEMINI_API_KEY) or ollama:qwen3:8b (OLLAMA_HOST).

Options:
  --model P:M       a real model instead of the scripted one.
  --db FILE         the sessions file (default as for askloop run).
  --json            print the same object as askloop run --json.

${LOOP_EXIT_USAGE}
`,
  jsonErrors: (args) => args.includes('--json'),
  async run(args, io) {
    const { values } = parseArgs({ args, options: { model: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' } }, allowPositionals: false, strict: true });
    const agent = await agentFromOptions({ model: values.model }, false, io, demoAgent(values.model ?? DEMO_MODEL));
    const json = values.json === true;
    const dbPath = resolveDbPath(values.db, io);
    const store = openSessionStore(dbPath);
    const { loop } = openSessionLoop({ store, scripts: { demo: DEMO_REPLIES }, env: io.env });
    const label = values.model === undefined ? `The scripted model (${DEMO_MODEL}, shipped with askloop — not a real model)` : `The model ${values.model}`;
    if (!json) io.stdout(`askloop demo — Plan → Apply with ${label.replace(/^The /, 'the ')}\nTask (USERDATA): ${JSON.stringify(DEMO_TASK)}\n`);
    return driveSession(io, loop, { kind: 'run', agent, task: DEMO_TASK }, { json, storedIn: dbPath, continueWith: { db: values.db }, ...(json ? {} : { onEvent: printDemoTurns(io, label) }) });
  },
};
