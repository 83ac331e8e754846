/**
 * The sandbox worker's own answers to pure tools (`SandboxRunRequest.localTools`):
 * a call of one of the run's local tools is answered here, in the worker
 * process, in microseconds, instead of a round trip to the host (four
 * hand-offs between threads and processes, 0.2–0.4 ms).
 *
 * Only a clean success is answered here: the module's result, within the
 * run's limits, within what is left of its tool-data budget, below its
 * tool-call backstop. Anything else — the module declined (a bad argument, a
 * tool error), a result over a limit, a module not loaded yet or not at all —
 * goes to the host as every call did before, which runs it again and answers
 * it exactly as always: these tools compute from their arguments alone.
 *
 * The module is imported the first time a run names it and used once loaded
 * (until then calls go to the host), so a run never waits for it.
 */
import type { JsonValue } from '../runtime/index.ts';
import { toJsonData } from '../run/tool-json-data.ts';
import { checkToolResultSize } from '../run/tool-result-size.ts';
import type { SandboxCheckpoint } from './sandbox-error.ts';
import type { SandboxLocalTools } from './sandbox-types.ts';
import { holdsSecret, type SecretScan } from './secret-fingerprints.ts';

/** What a local tools module exports (`@askloop/tools`' `local/local-tools.ts`). */
interface LocalToolsModule {
  callLocalTool(name: string, args: readonly JsonValue[], limits: SandboxLocalTools['limits']): unknown;
}

/** Modules by URL: loaded, still loading (`null`), or failed to load (`false`). */
const modules = new Map<string, LocalToolsModule | null | false>();

/** The loaded module for `url`, or undefined while it loads or when it failed; starts loading it the first time. */
export function loadedLocalTools(url: string): LocalToolsModule | undefined {
  const known = modules.get(url);
  if (known !== undefined) return known === null || known === false ? undefined : known;
  modules.set(url, null);
  import(url).then(
    (loaded: Partial<LocalToolsModule>) => modules.set(url, typeof loaded.callLocalTool === 'function' ? (loaded as LocalToolsModule) : false),
    // Calls keep going to the host; nothing is lost but time.
    () => modules.set(url, false),
  );
  return undefined;
}

/** A call answered here: the answer for the isolate, and the event that tells the host. */
export interface LocalAnswer {
  readonly outcomeJson: string;
  readonly eventJson: string;
  /** Characters of arguments and result, as JSON, spent from the run's tool-data budget. */
  readonly dataChars: number;
}

/** What the worker knows of the run as it answers one of its calls. */
export interface LocalRunState {
  /** What is left of the run's tool-data budget. */
  readonly dataLeft: number;
  /** Where the run is: the event carries it as a call to the host does (the fuel of a run the host stops later). */
  readonly checkpoint?: SandboxCheckpoint | undefined;
  /** The host's secrets, as fingerprints: a result holding one is the host's to hide. */
  readonly secrets?: SecretScan | undefined;
}

/**
 * Answers a call of `name` with `argsJson` (the isolate's JSON) when `local`
 * lists it and its module gives a result that passes every check the host's
 * path applies and holds none of the host's secrets; else undefined (the call
 * goes to the host).
 */
export function answerLocally(local: SandboxLocalTools, module: LocalToolsModule, name: string, argsJson: string, run: LocalRunState): LocalAnswer | undefined {
  const { dataLeft, checkpoint, secrets } = run;
  if (!local.names.includes(name) || argsJson.length > dataLeft) return undefined;
  const startedAt = performance.now();
  let valueJson: string;
  try {
    const parsed: unknown = JSON.parse(argsJson);
    const value = module.callLocalTool(name, Array.isArray(parsed) ? (parsed as JsonValue[]) : [], local.limits);
    if (value === undefined) return undefined;
    // The host's checks of a result, in its order (`callTool`, `host-call-handler.ts`): any refusal is the host's to give.
    const what = `tool '${name}'`;
    checkToolResultSize(value, local.limits, what);
    const data = toJsonData(value, what);
    // A decoding tool (`tool.str.FromHex`, `tool.json.Parse`) can make a key out of text that did not hold it.
    if (secrets !== undefined && holdsSecret(data, secrets)) return undefined;
    const json = JSON.stringify(data);
    if (typeof json !== 'string') return undefined;
    valueJson = json;
  } catch {
    return undefined;
  }
  const dataChars = argsJson.length + valueJson.length;
  if (dataChars > dataLeft) return undefined;
  const durationMs = performance.now() - startedAt;
  return {
    outcomeJson: `{"ok":true,"value":${valueJson}}`,
    eventJson: `{"name":${JSON.stringify(name)},"args":${argsJson},"result":${valueJson},"dataChars":${dataChars},"durationMs":${durationMs}${checkpoint === undefined ? '' : `,"checkpoint":${JSON.stringify(checkpoint)}`}}`,
    dataChars,
  };
}
