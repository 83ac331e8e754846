/**
 * The scripted models a stored session needs when another `askloop` process
 * continues it: from `--script FILE` (the same file as the run: a JSON array
 * of replies, or `{"ID": [replies…]}` as `askloop mcp serve --script` takes)
 * and the demo's embedded model, each without the replies the session
 * already used.
 */
import type { TranscriptStore } from '@askloop/controller';
import { readServeScript } from '../commands/mcp/load-serve-agents.ts';
import { DEMO_REPLIES } from '../demo/demo-script.ts';
import type { CommandIo } from '../io.ts';
import { unusedReplies } from './open-session-loop.ts';

/** The model id of a `scripted:ID` model. */
const SCRIPTED = 'scripted:';

/**
 * Replies by scripted model id, for `openSessionLoop({ scripts })`. An array
 * serves `scripted:script` (what `askloop run --script` names) and the
 * session's own scripted model; an object serves each model it names.
 */
export async function continueScripts(store: TranscriptStore, sid: string, scriptFile: string | undefined, io: CommandIo): Promise<Record<string, string[]>> {
  const script = scriptFile === undefined ? [] : await readServeScript(scriptFile, io);
  const byModel: Record<string, readonly string[]> = Array.isArray(script) ? { script } : { ...(script as Record<string, readonly string[]>) };
  if (Array.isArray(script)) {
    const model = ((await store.getSession(sid))?.agentDefinition as { model?: unknown } | null | undefined)?.model;
    if (typeof model === 'string' && model.startsWith(SCRIPTED)) byModel[model.slice(SCRIPTED.length)] = script;
  }
  const scripts: Record<string, string[]> = { demo: await unusedReplies(store, sid, DEMO_REPLIES) };
  for (const [id, replies] of Object.entries(byModel)) scripts[id] = await unusedReplies(store, sid, replies);
  return scripts;
}
