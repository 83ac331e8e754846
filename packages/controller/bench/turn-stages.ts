/**
 * Where a stepped turn's wall time goes, from the loop's own events: each
 * event is stamped when the listener sees it (the bus calls listeners
 * synchronously), and a turn's stages are the gaps between its consecutive
 * marks, from the call of `step` to its return. Used by the concurrency
 * benchmark to show, stage by stage, what 100 sessions at once add to a turn
 * over one session alone.
 */
import type { LoopEvent } from '../src/index.ts';
import { stats, type Stats } from '../../../scripts/bench-harness.ts';

/** The marks of a turn, in the order they happen; a turn that skips one (no tool call) joins the gap to the next. */
const MARKS = ['step', 'turn-start', 'asking', 'reply', 'prepared', 'executing', 'tool-call', 'scanning', 'decision', 'returned'] as const;
type Mark = (typeof MARKS)[number];
type Stage = Exclude<Mark, 'step'>;
/** The stages, each named by the mark that ends it. */
const STAGES = MARKS.slice(1) as Stage[];

/** What each gap holds, named by the mark that ends it. */
export const STAGE_LABELS: Readonly<Record<Stage, string>> = {
  'turn-start': 'step called → turn starts (session row, lease)',
  asking: 'compose the envelope, save `asking`',
  reply: 'model request → reply, less the server’s 200 ms (HTTP, SDK, server)',
  prepared: 'wait for a run slot, parse + check',
  executing: 'approval gate, save `executing`',
  'tool-call': 'sandbox: worker queue, fresh context, run to the tool call, the tool',
  scanning: 'rest of the run, result back to the host',
  decision: 'scan, decide, save `decided` with the session row',
  returned: 'step returns (lease given back)',
};

/** Stage → samples (ms) over the recorded turns. */
export type StageSamples = Map<Stage, number[]>;

/**
 * A recorder for stepped turns: `listener` goes to `loop.step(sid, { onEvent })`, and `stepped(sid, calledAt,
 * returnedAt)` is called once the step returns, with the times it was called and returned. `modelDelayMs` is taken off the model stage.
 */
export function createTurnStages(modelDelayMs: number): {
  listener(event: LoopEvent): void;
  stepped(sid: string, calledAt: number, returnedAt: number): void;
  readonly samples: StageSamples;
} {
  const open = new Map<string, Partial<Record<Mark, number>>>();
  const samples: StageSamples = new Map();
  const markOf = (event: LoopEvent): Mark | undefined => {
    switch (event.type) {
      case 'turn-start':
      case 'reply':
      case 'prepared':
      case 'tool-call':
      case 'decision':
        return event.type;
      case 'phase':
        return event.phase === 'asking' || event.phase === 'executing' || event.phase === 'scanning' ? event.phase : undefined;
      default:
        return undefined;
    }
  };
  return {
    samples,
    listener(event) {
      const mark = markOf(event);
      if (mark === undefined) return;
      let marks = open.get(event.sid);
      if (marks === undefined) open.set(event.sid, (marks = {}));
      marks[mark] ??= performance.now(); // the first tool call of the turn
    },
    stepped(sid, calledAt, returnedAt) {
      const marks = { ...open.get(sid), step: calledAt, returned: returnedAt };
      open.delete(sid);
      let previous = calledAt;
      for (const mark of STAGES) {
        const at = marks[mark];
        if (at === undefined) continue;
        let list = samples.get(mark);
        if (list === undefined) samples.set(mark, (list = []));
        list.push(at - previous - (mark === 'reply' ? modelDelayMs : 0));
        previous = at;
      }
    },
  };
}

/** Each stage's median and spread, in the order of a turn. */
export function stageStats(samples: StageSamples): { stage: Stage; label: string; stats: Stats }[] {
  return STAGES.filter((stage) => samples.has(stage))
    .map((stage) => ({ stage, label: STAGE_LABELS[stage], stats: stats(samples.get(stage) ?? []) }));
}
