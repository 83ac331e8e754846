/**
 * Records the events of a real three-turn session — createAskLoop with the
 * scripted provider, the real sandbox, tools, policy and memory store — for
 * the progress renderer's tests. Turn 1 calls a tool the agent may not use
 * (the check refuses it; fed back under `repair`), turn 2 calls tools, emits
 * and whispers, turn 3 ends DONE. Times and ids are the only parts made
 * fixed, so the rendering can be compared with a snapshot.
 */
import { createAskLoop, createMemoryTranscriptStore, definePlugin, type LoopEvent, type LoopResult } from '@askloop/controller';
import { createScriptedProvider } from '@askloop/providers';
import { createSafeToolPacks } from '@askloop/tools';

const envelope = (program: string) => `<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{}\n<<<NSENV:V4:ACTIONS>>>\n${program}\n<<<NSENV:V4:END>>>\n`;

/** The scripted replies, turn by turn. */
export const SCRIPTED_REPLIES: readonly string[] = [
  envelope('command\n  emit tool.fs.Read("/etc/passwd")\nendcommand'),
  envelope(
    [
      'command',
      '  # count the words first',
      '  set words = tool.str.Split(userdata["subject"], " ")',
      '  whisper "plan", "counted " + len(words) + " words"',
      '  emit "The task has " + len(words) + " words."',
      'endcommand',
    ].join('\n'),
  ),
  envelope('command\n  emit "<<<LOOP:DONE>>> " + tool.str.ToUpper(userdata["subject"])\nendcommand'),
];

/** The ceilings of the recorded agent (the renderer shows what is left of them). */
export const RECORDED_CEILINGS = { maxTurns: 5, tokens: 50_000 } as const;

/** Events of a real session, in order, with times fixed; and its result. */
export async function recordScriptedSession(): Promise<{ events: LoopEvent[]; result: LoopResult }> {
  const plugin = definePlugin({
    name: 'progress-test',
    specificationVersion: 'v1',
    providers: { scripted: createScriptedProvider({ models: { words: [...SCRIPTED_REPLIES] } }) },
    toolPacks: createSafeToolPacks(),
    agents: { words: { name: 'words', model: 'scripted:words', ceilings: RECORDED_CEILINGS, repair: 1 } },
  });
  let id = 0;
  const loop = createAskLoop({ plugins: [plugin], store: createMemoryTranscriptStore(), createId: () => `00000000-0000-4000-8000-${String(++id).padStart(12, '0')}` });
  const events: LoopEvent[] = [];
  try {
    const result = await loop.run({ agent: 'words', task: 'hello big world', onEvent: (event) => events.push(fixTimes(event)) });
    return { events, result: { ...result, usage: { ...result.usage, wallMs: 1234 } } };
  } finally {
    await loop.close();
  }
}

/** Replaces every measured time with a fixed one (times are the only non-deterministic part of a scripted session). */
function fixTimes(event: LoopEvent): LoopEvent {
  const fixed = { ...event, ts: '2026-01-01T00:00:00.000Z' } as Record<string, unknown>;
  if (event.type === 'reply') fixed['latencyMs'] = 850;
  if (event.type === 'tool-call') fixed['call'] = { ...event.call, durationMs: 2 };
  if (event.type === 'decision') fixed['log'] = { ...event.log, ts: '2026-01-01T00:00:00.000Z', latency_ms: 1200, model_latency_ms: 850 };
  return fixed as unknown as LoopEvent;
}
