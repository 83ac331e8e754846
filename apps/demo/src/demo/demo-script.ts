/**
 * The demo's task and its embedded model: seed 000's Plan → Apply, answered
 * by a scripted model whose replies are real NeuroScript in real AEIOU v4
 * envelopes, written the way models answer (turn 1 in prose and a markdown
 * fence, which the host recovers). The script is fixed, so the session is the
 * same on every machine: plan, apply with a mistake, a refused program, then
 * DONE. With `--model` a real model gets the same task and agent instead.
 */
import type { AgentDefinition } from '@askloop/controller';
import type { Userdata } from '@askloop/envelope';

/** The scripted model of the demo: `scripted:demo`. */
export const DEMO_MODEL = 'scripted:demo';

/** The memory key the task claims. */
const KEY = '/ingest/queue/x';

/** USERDATA of the demo session. */
export const DEMO_TASK: Userdata = {
  subject: `Claim the work item ${KEY}`,
  brief: 'Plan → Apply: first check what you may do and emit a plan without writing; then apply it with tool.memory.CAS, verify it, and finish with <<<LOOP:DONE>>> and a one-line summary.',
  fields: { key: KEY, value: 'taken' },
};

/**
 * The demo's agent: the safe tool groups (`tool.http.Fetch` is registered but
 * not allowed), memory writes granted under `/ingest/` only, and `repair: 1`
 * so a refused program is fed back to the model instead of halting.
 */
export function demoAgent(model: string = DEMO_MODEL): AgentDefinition {
  return {
    name: 'plan-apply',
    model,
    description: 'Plan → Apply: plan without writing, then apply with CAS.',
    instructions: 'Work in two steps. Plan → Apply: first emit a plan without writing anything; next turn apply it with tool.memory.CAS, using the version tool.memory.Get returned.',
    policy: { grants: ['memory:read,write:/ingest/**'] },
    ceilings: { maxTurns: 8 },
    repair: 1,
  };
}

const envelope = (actions: string) =>
  ['<<<NSENV:V4:START>>>', '<<<NSENV:V4:USERDATA>>>', '{}', '<<<NSENV:V4:ACTIONS>>>', actions, '<<<NSENV:V4:END>>>', ''].join('\n');

/** Turn 1 — Plan: inspect capabilities, check the plan with the policy, emit it; no writes. */
const PLAN = `I'll check what I may do and plan before writing anything.

\`\`\`
${envelope(`command
  set caps = tool.system.Caps()
  must caps["memory:write"]
  set plan = [{"op": "set", "path": userdata["fields"]["key"], "value": userdata["fields"]["value"]}]
  set verdict = tool.policy.Allow(plan)
  must verdict[0]
  emit "memory:write granted; the policy allows the plan"
  emit "PLAN " + tool.json.Stringify(plan)
  whisper self, "planned 1 op, nothing written yet; next: apply with CAS"
endcommand`)}\`\`\`
`;

/** Turn 2 — Apply with CAS; the write succeeds, then the program reads past the end of CAS's [ok, version]. */
const APPLY = envelope(`command
  set key = userdata["fields"]["key"]
  set current = tool.memory.Get(key)
  set outcome = tool.memory.CAS(key, current[1], userdata["fields"]["value"])
  emit "CAS " + key + " at version " + current[1] + ": " + outcome
  emit "applied; the new version is " + outcome[2]
endcommand`);

/** Turn 3 — after the SYSTEM_ERROR: verify, and also notify a webhook, which this agent may not use: refused before anything runs. */
const NOTIFY = envelope(`command
  set current = tool.memory.Get(userdata["fields"]["key"])
  emit "verified: " + current
  set sent = tool.http.Fetch("https://hooks.example.com/claimed")
endcommand`);

/** Turn 4 — verify without the webhook and finish. */
const DONE = envelope(`command
  set key = userdata["fields"]["key"]
  set current = tool.memory.Get(key)
  must current[0] == userdata["fields"]["value"]
  emit "<<<LOOP:DONE>>> claimed " + key + " = " + current[0] + " (version " + current[1] + ")"
endcommand`);

/** The scripted replies, one per turn. */
export const DEMO_REPLIES: readonly string[] = [PLAN, APPLY, NOTIFY, DONE];
