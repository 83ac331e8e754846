/**
 * The plugin the worker tests and the crash test run: a scripted model that
 * answers from the turn, not from how many calls it served (a session's
 * turns run on many hosts, each with its own model object), and an agent
 * whose every turn has tool effects on the memory store:
 *
 * - `/count/<label>` is incremented with a compare-and-swap — run twice, a
 *   turn would count twice;
 * - `/turn/<label>/<n>` is created once (version 1) by turn n.
 *
 * Turn `turns` of a session ends it with `<<<LOOP:DONE>>> <label>`. A label
 * starting with `spin-` spins on turn 1 after its writes until the memory
 * key `/go/<label>` is set (so a test can kill its host mid-turn). A label
 * starting with `approve-` also calls `tool.test.Deploy`, which needs a
 * person's approval (the turn pauses before anything runs).
 */
import { definePlugin, type AgentDefinition, type AskLoopPlugin } from '@askloop/controller';
import { createScriptedProvider, type ScriptedTurn } from '@askloop/providers';
import { createSafeToolPacks, defineTool, defineToolPack } from '@askloop/tools';
import { envelope } from './envelope.ts';


/** The reply to one turn: the turn number comes from the system text's budget line, the label from USERDATA. */
export function countingReply(turns: number): (turn: ScriptedTurn) => string {
  return ({ system, prompt }) => {
    const index = Number(/turn (\d+) of \d+/.exec(system ?? '')?.[1]);
    const label = /"subject":\s*"([^"]+)"/.exec(prompt)?.[1];
    if (!Number.isInteger(index) || label === undefined) throw new Error(`cannot read the turn or the label from the prompt:\n${system}\n${prompt}`);
    const lines = [
      'command',
      `  set c = tool.memory.Get("/count/${label}")`,
      `  set w = tool.memory.CAS("/count/${label}", c[1], c[1] + 1)`,
      `  set t = tool.memory.CAS("/turn/${label}/${index}", 0, ${index})`,
    ];
    if (label.startsWith('approve-')) lines.push('  set d = tool.test.Deploy("prod")');
    if (label.startsWith('spin-') && index === 1) {
      lines.push(
        `  set go = tool.memory.Get("/go/${label}")`,
        '  while go[0] == nil',
        '    set spins = 0',
        '    while spins < 20000',
        '      set spins = spins + 1',
        '    endwhile',
        `    set go = tool.memory.Get("/go/${label}")`,
        '  endwhile',
      );
    }
    lines.push(index >= turns ? `  emit "<<<LOOP:DONE>>> ${label}"` : `  emit "turn ${index} of ${label}: count " + w[1]`, 'endcommand');
    return envelope(lines.join('\n'));
  };
}

/**
 * The agent: `turns` turns, memory tools only, quotas large enough to spin —
 * tool calls included: the spin reads its flag once per inner loop, and with
 * the default 100 calls a fast machine ended the spin (HALT) in well under a
 * second, sometimes before a test polling every 50 ms saw the turn executing.
 */
export function countingAgent(turns: number): AgentDefinition {
  return {
    name: 'counter',
    model: 'scripted:counting',
    policy: { allow: ['tool.memory.*', 'tool.test.*'], grants: ['memory:read:/**', 'memory:write:/**'] },
    quotas: { fuel: 1_000_000_000_000, wallMs: 600_000, toolCalls: 1_000_000_000 },
    ceilings: { maxTurns: turns + 2, fuel: 1_000_000_000_000, wallMs: 3_600_000 },
  };
}

/** The plugin with the counting model and the safe tool packs. */
export function countingPlugin(turns: number): AskLoopPlugin {
  return definePlugin({
    name: 'counting',
    specificationVersion: 'v1',
    providers: { scripted: createScriptedProvider({ models: { counting: countingReply(turns) } }) },
    toolPacks: [
      ...createSafeToolPacks(),
      defineToolPack('test', [
        defineTool(
          { name: 'tool.test.Deploy', description: 'Pretends to deploy; needs a person to approve.', args: [{ name: 'target', type: 'string' }], returns: 'string', effect: 'external', requiresApproval: true },
          (args) => `deployed ${String(args.target)}`,
        ),
      ]),
    ],
    agents: { counter: countingAgent(turns) },
  });
}
