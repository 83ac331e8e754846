/**
 * The entry of the runtime bundle loaded into each sandbox context. Defines
 * the global `__askloopEvaluate(input)` the sandbox calls with JSON input (a
 * `CompiledEvaluationInput`: the host already generated the code), and
 * bridges the evaluator's host requests to the sandbox's `__host` (which
 * copies everything as JSON text). Bundled into one classic script by
 * `src/run/generate-runtime-bundle.ts`; never imported by host code.
 */
import type { JsonValue } from '../runtime/index.ts';
import type { CompiledEvaluationInput, EvaluationOutput } from './evaluation-types.ts';
import type { HostBridge, HostReply } from './host-bridge.ts';
import { hostCallName } from './host-call-name.ts';
import { runCompiled } from './run-compiled.ts';

/** The sandbox's host object, as `BOOTSTRAP_SOURCE` installs it. */
interface SandboxHost {
  callTool(name: string, args: JsonValue): HostReply;
  event(kind: string, payload: JsonValue): void;
  /** The run's clock: epoch ms less the time tool calls waited on a busy host. */
  now(): number;
  /** Memory shared with the worker: where the run is (see `HostBridge.checkpoint`). */
  readonly checkpoint?: Float64Array;
}

const sandboxHost = (globalThis as unknown as { __host: SandboxHost }).__host;

const bridge: HostBridge = {
  request(request) {
    if (request.kind === 'tool') return sandboxHost.callTool(request.name, request.args as JsonValue[]);
    const { kind, ...payload } = request;
    return sandboxHost.callTool(hostCallName(kind), payload as JsonValue);
  },
  event(event) {
    const { kind, ...payload } = event;
    sandboxHost.event(kind, payload as JsonValue);
  },
  now: sandboxHost.now,
  ...(sandboxHost.checkpoint === undefined ? {} : { checkpoint: sandboxHost.checkpoint }),
};

Object.defineProperty(globalThis, '__askloopEvaluate', {
  value: (input: CompiledEvaluationInput): EvaluationOutput => runCompiled(input, bridge),
  enumerable: false,
  writable: false,
  configurable: false,
});
