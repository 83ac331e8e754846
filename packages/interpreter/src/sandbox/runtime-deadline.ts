/**
 * The worker holds a runtime to the deadline it set itself
 * (`__host.checkpoint[2]`, the evaluator's `wallMs`): a run still computing
 * in the isolate `RUNTIME_DEADLINE_SLACK_MS` past it, without having noticed,
 * is ended then, instead of when the sandbox's own `wallMs` — which the
 * interpreter sets 250 ms later, room for a tool call that overruns — runs
 * out. The evaluator reads its clock between steps, at most 1,024 apart; when
 * its steps turn slow just after a read (each copies a 50,000-item list), a
 * thousand slow steps went by before the next, and a 50 ms run was stopped
 * up to ~290 ms late, by that clock. A runtime that noticed its deadline
 * withdraws it (writes 0) while it winds up: unwinding a deep recursion to
 * report a typed error at its exact step may take longer than the slack.
 * While a tool call is out the watch is off: the host times the call.
 */
import { CHECKPOINT_DEADLINE } from './checkpoint-memory.ts';

/**
 * How long past its own deadline a runtime may go on computing. The
 * evaluator stops itself within ~3 ms of it (median; more on a loaded
 * machine), with a typed error at its exact step; past this the worker
 * terminates the isolate, and the run reports the checkpoint's line and fuel.
 */
export const RUNTIME_DEADLINE_SLACK_MS = 20;
/** How often to look for the deadline while the runtime has none there (it writes it as it starts, after its input). */
const UNKNOWN_DEADLINE_POLL_MS = 5;

/** One run's watch: on while the run is in the isolate, off while a tool call is out. */
export class RuntimeDeadlineWatch {
  readonly #checkpoint: () => Float64Array | undefined;
  readonly #onPast: () => void;
  #timer: NodeJS.Timeout | undefined;
  /** When the sandbox's own clock runs out (`performance.now()`), as of the last `start`. */
  #sandboxEnd = 0;
  /** The ms `__host.now()` left out (tool calls' waits on a busy host), so the worker reads the runtime's clock as it does. */
  #excusedMs = 0;

  /** `checkpoint`: the run's shared memory once its context is made; `onPast`: ends the run. */
  constructor(checkpoint: () => Float64Array | undefined, onPast: () => void) {
    this.#checkpoint = checkpoint;
    this.#onPast = onPast;
  }

  /** The run is in the isolate again, with `leftMs` of the sandbox's own clock left: watch its deadline. */
  start(leftMs: number): void {
    this.#sandboxEnd = performance.now() + leftMs;
    this.#arm(true);
  }

  /** A tool call is out, or the run ended. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** A tool call's wait on a busy host, which `__host.now()` leaves out too. */
  excuse(ms: number): void {
    if (ms > 0) this.#excusedMs += ms;
  }

  /** Sets the timer for the deadline as the runtime has it now; `resumed`: the run just (re)entered the isolate. */
  #arm(resumed: boolean): void {
    this.stop();
    const deadline = this.#checkpoint()?.[CHECKPOINT_DEADLINE] ?? 0;
    // None yet, or withdrawn, or not a time (a runtime may write anything): look again soon.
    if (!Number.isFinite(deadline) || deadline <= 0) {
      this.#timer = setTimeout(() => this.#arm(false), UNKNOWN_DEADLINE_POLL_MS);
      return;
    }
    const pastMs = Date.now() - this.#excusedMs - deadline;
    // Back from a tool call that came back past the deadline: the runtime reads its clock first thing; give it the slack.
    if (pastMs >= RUNTIME_DEADLINE_SLACK_MS && !resumed) return this.#onPast();
    const delay = Math.max(RUNTIME_DEADLINE_SLACK_MS - pastMs, resumed ? RUNTIME_DEADLINE_SLACK_MS : 0);
    // The sandbox's own clock comes first (a runtime with no limit of its own writes a deadline far away).
    if (performance.now() + delay >= this.#sandboxEnd) return;
    // When it fires, look again: the runtime may have withdrawn its deadline meanwhile.
    this.#timer = setTimeout(() => this.#arm(false), delay);
  }
}
