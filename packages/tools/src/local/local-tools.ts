/**
 * The module a sandbox worker loads to answer calls of the built-in pure
 * tools itself (the interpreter's `localTools`, `workerLocalTools`): a call
 * there costs microseconds, where a round trip to the host costs hundreds.
 *
 * It does what the tool host does for a successful call — look the tool up,
 * copy and bind the arguments, run the handler, bound the result — and
 * nothing else. Whatever does not succeed here (a bad argument, a handler
 * error, a result over the run's limits, a handler that reads what only the
 * host has: the session, the stores, the clock) is answered `undefined`, and
 * the worker sends that call to the host, which runs it again and answers it
 * exactly as it answers every call. These tools compute from their arguments
 * alone, so running one twice gives the same result.
 *
 * Loaded in the worker process, never in the isolate: the program sees only
 * the copied JSON of a result.
 */
import { createJsonTools } from '../packs/json-tools.ts';
import { createListTools } from '../packs/list-tools.ts';
import { createMapTools } from '../packs/map-tools.ts';
import { createMathTools } from '../packs/math-tools.ts';
import { createStringTools } from '../packs/string-tools.ts';
import { createToolRegistry } from '../registry/tool-registry.ts';
import { bindArguments } from '../spec/bind-arguments.ts';
import { toBoundedToolValue } from '../spec/bounded-result.ts';
import { copyArguments } from '../spec/copy-arguments.ts';
import type { ToolContext } from '../spec/tool-context.ts';
import type { ToolValue } from '../spec/tool-value.ts';

/** The run's result limits (its `stringLength` and `collectionSize`), as the tool host applies them. */
export interface LocalToolLimits {
  readonly stringLength: number;
  readonly collectionSize: number;
}

const registry = createToolRegistry([createStringTools(), createListTools(), createMapTools(), createMathTools(), createJsonTools()]);
/** Never aborts: a call here runs to its end synchronously. */
const neverAborted = new AbortController().signal;

/** Thrown by what the worker cannot give a handler; the call then goes to the host. */
class HostOnly extends Error {}
const hostOnly = (what: string) => (): never => {
  throw new HostOnly(`${what} is only known in the host`);
};
/** What every call's context inherits: what only the host has, each a getter that throws. Made once, not per call. */
const HOST_ONLY_FIELDS: object = Object.freeze(
  Object.defineProperties(
    { authorize: hostOnly('authorize') },
    Object.fromEntries(['session', 'turn', 'callIndex', 'clock', 'stores', 'policy', 'registry'].map((field) => [field, { get: hostOnly(field) }])),
  ),
);

/** Answers one call: the bounded result, or `undefined` when the host must answer it (see the module's comment). */
export function callLocalTool(name: string, args: readonly ToolValue[], limits: LocalToolLimits): ToolValue | undefined {
  const found = registry.lookup(name);
  if (found === undefined) return undefined;
  const { spec, handler } = found.definition;
  try {
    const bound = bindArguments(spec, copyArguments(spec.displayName, args));
    const context = Object.assign(Object.create(HOST_ONLY_FIELDS) as object, { spec, signal: neverAborted, maxResultLength: limits.stringLength, maxResultItems: limits.collectionSize, rest: bound.rest }) as ToolContext;
    const raw: unknown = handler(bound.args, context);
    // Every pure tool answers at once; one that does not is the host's to await.
    if (raw !== null && typeof raw === 'object' && typeof (raw as { then?: unknown }).then === 'function') {
      // Its outcome is the host's, which runs the call again; a rejection here must not end the worker.
      (raw as PromiseLike<unknown>).then(undefined, () => undefined);
      return undefined;
    }
    return toBoundedToolValue(raw, { tool: spec.displayName, maxItems: limits.collectionSize, maxLength: limits.stringLength });
  } catch {
    return undefined;
  }
}
