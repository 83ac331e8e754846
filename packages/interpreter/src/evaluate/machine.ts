/**
 * The state of one run: quotas and their counters, collected OUTPUT and
 * SCRATCHPAD and the host bridge. The code generated for a run captures the
 * machine of that run, so a run never sees another's state.
 */
import { fail, fromJson, isStackOverflow, neededGrantOf, type Position, type RunLimits, SCRIPT_ERROR_CODES, ScriptError, type ScriptErrorCode, type Value } from '../runtime/index.ts';
import { CHECKPOINT_LINE, CHECKPOINT_STEPS } from '../sandbox/checkpoint-memory.ts';
import type { HostBridge, HostReply, HostRequest } from './host-bridge.ts';

/**
 * How often (in fuel steps) the wall clock is read at most: cheap steps take
 * a few ns, so 1024 of them are a few µs and reading the clock costs nothing
 * measurable. Steps that are slow (each copies a big list, say) shorten the
 * interval, see `stepClock`.
 */
const CLOCK_INTERVAL = 1024;
/**
 * The interval a run starts with, doubling at each read to `CLOCK_INTERVAL`
 * (six reads more a run, about 1,000 steps in): a run whose steps are slow
 * from the start is timed, and leaves its first checkpoint, within 16 steps,
 * not 1,024 (a loop copying a 100,000-item list ran out of 16 MiB in 60 steps
 * without leaving any).
 */
const FIRST_CLOCK_INTERVAL = 16;
/**
 * Ms between two reads of the clock above which the interval is shortened.
 * The clock (`Date.now()` in the isolate) has 1 ms resolution, so 1 ms may be
 * a boundary crossed by a few µs of work; 2 ms is really slow steps.
 */
const SLOW_CLOCK_MS = 2;

/** UTF-8 byte length of a string, as `Buffer.byteLength` counts it (a lone surrogate is 3 bytes, as U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** True for the second half of a surrogate pair (NaN, past the end, is not). */
function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** One run's state. */
export class Machine {
  readonly limits: RunLimits;
  readonly host: HostBridge;
  readonly deadline: number;
  readonly globals: ReadonlyMap<string, Value>;
  /**
   * Fuel left at the start of the current window (see `left`); `spent()` is
   * the exact figure at any moment.
   */
  private fuel: number;
  /** Steps until the wall clock is read, at the start of the current window. */
  private clock = FIRST_CLOCK_INTERVAL;
  /** Steps between two reads of the clock now (`CLOCK_INTERVAL` at most; fewer at first and while steps are slow). */
  private clockInterval = FIRST_CLOCK_INTERVAL;
  /** What the clock read last (the run's start before the first read). */
  private clockReadAt: number;
  /**
   * Steps the generated code may take before it must call `refill`: the
   * current window. A step is `if (--M.left < 0) M.refill(where)`, one
   * decrement instead of a fuel and a clock counter. A window never reaches
   * past the step that exhausts the fuel or the step that reads the clock, so
   * `refill` performs those steps exactly where per-step accounting would.
   */
  left = 0;
  /** The size of the current window when it was granted. */
  private granted = 0;
  toolCalls = 0;
  /** `ask` and `promptuser` statements made (bounded by `MAX_ASKS_AND_PROMPTS`). */
  asksAndPrompts = 0;
  readonly emits: string[] = [];
  /** The source line of the `emit` statement that wrote each of `emits` (0 where unknown). */
  readonly emitLines: number[] = [];
  readonly whispers: { target: string; text: string }[] = [];
  private outputBytes = 0;
  private scratchpadBytes = 0;
  readonly stream: boolean;
  /**
   * Containers held by exactly one variable slot, which `set` may therefore
   * change in place instead of copying (value semantics stay intact: a
   * container leaves this set as soon as a read could share it).
   */
  readonly owned = new WeakSet<object>();

  constructor(limits: RunLimits, host: HostBridge, globals: ReadonlyMap<string, Value>, stream: boolean, startedAt: number) {
    this.limits = limits;
    this.host = host;
    this.globals = globals;
    this.fuel = limits.fuel;
    this.deadline = startedAt + limits.wallMs;
    this.clockReadAt = startedAt;
    this.stream = stream;
  }

  /** Spends one unit of fuel; checks the wall clock now and then. (Generated code inlines the fast path.) */
  tick(where: Position): void {
    if (--this.left < 0) this.refill(where);
  }

  /**
   * The step that did not fit in the window: closes the window, takes the
   * step one by one (fuel, then the clock every `CLOCK_INTERVAL` steps) and
   * opens the next window.
   */
  refill(where: Position): void {
    this.settle();
    if (--this.fuel < 0) {
      this.fuel = 0;
      fail('SCRIPT_FUEL_EXHAUSTED', `The program ran out of fuel after ${this.limits.fuel} steps (limit: fuel).`, where);
    }
    if (--this.clock <= 0) this.stepClock(where);
    else this.grant();
  }

  /**
   * The clock read that steps reached (in practice every window ends at one):
   * leaves a checkpoint for the host, then fits the interval to how long the
   * last one took, so that the clock is read about every `SLOW_CLOCK_MS` ms
   * however slow each step is, and a run stops that soon after its deadline
   * (a fixed 1024 steps of 50 µs each overran a 50 ms limit by 50 ms). The
   * interval grows back, doubling, once steps are fast again.
   */
  private stepClock(where: Position): void {
    // Two stores a window, not one a step.
    this.mark(where);
    const now = this.host.now();
    const took = now - this.clockReadAt;
    if (took >= SLOW_CLOCK_MS) this.clockInterval = Math.max(1, Math.floor(this.clockInterval / took));
    else if (this.clockInterval < CLOCK_INTERVAL) this.clockInterval = Math.min(CLOCK_INTERVAL, this.clockInterval * 2);
    this.readClock(now, where);
  }

  /**
   * Leaves in the checkpoint (when the host shares one) the line the run is at
   * and the fuel it has spent: what the host reports for a run it stops from
   * outside when no error of ours can say it (out of memory, cancelled during
   * a tool call: the isolate is gone by then).
   */
  private mark(where: Position): void {
    const checkpoint = this.host.checkpoint;
    if (checkpoint === undefined) return;
    checkpoint[CHECKPOINT_LINE] = where.line;
    checkpoint[CHECKPOINT_STEPS] = this.spent();
  }

  /** Two steps that did not both fit in the window, taken one by one (see `fuelSteps` in the code generator). */
  refillTwo(first: Position, second: Position): void {
    this.left += 2;
    this.tick(first);
    this.tick(second);
  }

  /**
   * A function's entry step and its first statement's step that did not both
   * fit in the window, taken one by one. The entry step fails in the caller;
   * the statement's step fails inside the function, so its error gets the
   * function's frame here, as the function's own error handling would add it.
   */
  enterTwo(entry: Position, second: Position, name: string): void {
    this.left += 2;
    this.tick(entry);
    try {
      this.tick(second);
    } catch (error) {
      if (error instanceof ScriptError) error.frames.push({ name, line: error.line, column: error.column });
      throw error;
    }
  }

  /** Throws `SCRIPT_TIMEOUT` once the deadline has passed. */
  checkClock(where: Position | null): void {
    this.settle();
    this.readClock(this.host.now(), where);
  }

  /** Starts the next clock interval at `now`, or throws `SCRIPT_TIMEOUT` when `now` is past the deadline. */
  private readClock(now: number, where: Position | null): void {
    this.clock = this.clockInterval;
    this.clockReadAt = now;
    if (now > this.deadline) {
      fail('SCRIPT_TIMEOUT', `The program ran longer than ${this.limits.wallMs} ms (limit: wallMs).`, where);
    }
    this.grant();
  }

  /** Fuel spent so far. */
  spent(): number {
    return this.limits.fuel - (this.fuel - (this.granted - this.left));
  }

  /** Books the steps taken in the current window and closes it. */
  private settle(): void {
    const used = this.granted - Math.max(this.left, 0);
    this.fuel -= used;
    this.clock -= used;
    this.granted = 0;
    this.left = 0;
  }

  /** Opens a window: every step that neither exhausts the fuel nor reaches the clock check. */
  private grant(): void {
    const steps = Math.max(0, Math.min(this.fuel, this.clock - 1));
    this.granted = steps;
    this.left = steps;
  }

  /** Appends `text` to OUTPUT (reference seed 003 §4: `<text>\n`). */
  emit(text: string, where: Position): void {
    const bytes = utf8Length(text) + 1;
    if (this.outputBytes + bytes > this.limits.outputBytes) {
      fail('SCRIPT_OUTPUT_LIMIT', `OUTPUT would exceed ${this.limits.outputBytes} bytes (limit: outputBytes); ${this.emits.length} emits were kept.`, where);
    }
    this.outputBytes += bytes;
    this.emits.push(text);
    const line = where?.line ?? 0;
    this.emitLines.push(line);
    if (this.stream) this.host.event?.({ kind: 'emit', text, line });
  }

  /**
   * Appends `text` for `target` to SCRATCHPAD. The target's bytes count too:
   * the host keeps every whisper with its target, and 1,000 whispers of ''
   * to a 1 MB target passed the limit with 18 MB the host had to carry.
   */
  whisper(target: string, text: string, where: Position): void {
    const bytes = utf8Length(text) + utf8Length(target) + 1;
    if (this.scratchpadBytes + bytes > this.limits.scratchpadBytes) {
      fail('SCRIPT_SCRATCHPAD_LIMIT', `SCRATCHPAD would exceed ${this.limits.scratchpadBytes} bytes (limit: scratchpadBytes; each whisper's target counts with its text).`, where);
    }
    this.scratchpadBytes += bytes;
    this.whispers.push({ target, text });
    if (this.stream) this.host.event?.({ kind: 'whisper', target, text });
  }

  /** Sends a request to the host and turns its reply into a value or a script error. */
  request(request: HostRequest, where: Position): Value {
    let reply: HostReply;
    // Where the run is and what it has spent, for a host that stops it while this request is out (it cannot ask a
    // stopped isolate): the worker reads the checkpoint as it forwards the request.
    this.mark(where);
    try {
      reply = this.host.request(request);
    } catch (error) {
      // A stack overflow here is the program's depth (the bridge ran out of the stack the program left it, perhaps
      // after the call went out), not the host failing: it leaves as it would from any step, `SCRIPT_CALL_DEPTH`.
      if (error instanceof ScriptError || (error instanceof RangeError && isStackOverflow(error))) throw error;
      throw new ScriptError('SCRIPT_INTERNAL', `The host failed to answer a ${request.kind} request: ${String((error as Error)?.message ?? error)}`, where);
    }
    this.checkClock(where);
    if (!reply.ok) {
      // Only codes of the table reach the script; anything else a host sends is a tool error.
      const code = Object.hasOwn(SCRIPT_ERROR_CODES, reply.error.code) ? (reply.error.code as ScriptErrorCode) : 'SCRIPT_TOOL_ERROR';
      const error = new ScriptError(code, reply.error.message, where, reply.error.numericCode, neededGrantOf(reply.error.grant));
      throw error;
    }
    return fromJson(reply.value, this.limits, where);
  }
}
