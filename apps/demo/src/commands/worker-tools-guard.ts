/**
 * A worker takes no turn of a session whose agent allows tools the worker
 * lacks: a plugin's (its run's config loaded it), an MCP server's, or
 * `tool.fs.*` (its run had `--fs-root`; `--detach` does not pass it on). Run
 * here, the turn's model would see a catalogue without them, and a program
 * naming one is refused as the model's mistake (`SCRIPT_TOOL_UNKNOWN`): the
 * session halted `ERR_PERMISSIONS` for good, which `resume` cannot undo. The
 * step fails instead (`LOOP_TOOLS_MISSING`), which `runWorker` takes for this
 * host lacking something another may have: the session is left to another
 * worker, no failure counted, and this one looks at it again in a minute. A pattern a letter or two from a tool
 * the worker has is a typo, not a missing tool: it is left to run, as
 * `askloop run` runs it after its warning.
 */
import { LoopError, type AskLoop, type TranscriptStore } from '@askloop/controller';
import { unmatchedAllowPatterns, type HostToolNames } from '../options/allow-pattern-warnings.ts';

/** `loop` whose `step` first checks the session's allowed tools against `tools`. */
export function guardMissingTools(loop: Pick<AskLoop, 'step'>, store: Pick<TranscriptStore, 'getSession'>, tools: HostToolNames): Pick<AskLoop, 'step'> {
  return {
    async step(sid, options) {
      const session = await store.getSession(sid);
      if (session?.status === 'running') {
        const missing = unmatchedAllowPatterns(allowOf(session.agentDefinition), tools).filter((pattern) => pattern.toolsMissing);
        if (missing.length > 0) {
          const named = missing.map(({ pattern }) => `'${pattern}'`).join(', ');
          throw new LoopError({
            code: 'LOOP_TOOLS_MISSING',
            message: `session ${sid}: its agent allows ${named}, and this worker has no such tool${missing[0]!.hint}; nothing ran: a worker started with what its run had (the config's plugins and MCP servers with --config, --fs-root) takes it`,
          });
        }
      }
      return loop.step(sid, options);
    },
  };
}

/** The `policy.allow` of a stored agent definition ([] when it has none: the default groups are every host's). */
function allowOf(definition: unknown): string[] {
  const policy = typeof definition === 'object' && definition !== null ? (definition as { policy?: unknown }).policy : undefined;
  const allow = typeof policy === 'object' && policy !== null ? (policy as { allow?: unknown }).allow : undefined;
  return Array.isArray(allow) ? allow.filter((pattern): pattern is string => typeof pattern === 'string') : [];
}
