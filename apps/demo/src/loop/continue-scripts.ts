/**
 * The scripted models a stored session needs when another `askloop` process
 * continues it: from `--script FILE` (the same file as the run: a JSON array
 * of replies, or `{"ID": [replies…]}` as `askloop mcp serve --script` takes)
 * and the demo's embedded model, each without the replies the session
 * already used; and the refusal to continue a scripted session without its
 * `--script`.
 */
import type { SessionRecord, TranscriptStore } from '@askloop/controller';
import { usageError } from '../cli-error.ts';
import { readServeScript } from '../commands/mcp/load-serve-agents.ts';
import { DEMO_REPLIES } from '../demo/demo-script.ts';
import type { CommandIo } from '../io.ts';
import { continueArgs, REDACTED_DB_NOTE, type ContinueWith } from './continue-hint.ts';
import { unusedReplies } from './open-session-loop.ts';

/** The model id of a `scripted:ID` model. */
const SCRIPTED = 'scripted:';

/**
 * Replies by scripted model id, for `openSessionLoop({ scripts })`. An array
 * serves `scripted:script` (what `askloop run --script` names) and the
 * session's own scripted model (`session`, as read from `store`); an object
 * serves each model it names.
 */
export async function continueScripts(store: TranscriptStore, sid: string, session: SessionRecord | undefined, scriptFile: string | undefined, io: CommandIo): Promise<Record<string, string[]>> {
  const script = scriptFile === undefined ? [] : await readServeScript(scriptFile, io);
  const byModel: Record<string, readonly string[]> = Array.isArray(script) ? { script } : { ...(script as Record<string, readonly string[]>) };
  const model = scriptedModelOf(session);
  if (Array.isArray(script) && model !== undefined) byModel[model] = script;
  const scripts: Record<string, string[]> = { demo: await unusedReplies(store, sid, DEMO_REPLIES) };
  for (const [id, replies] of Object.entries(byModel)) scripts[id] = await unusedReplies(store, sid, replies);
  return scripts;
}

/**
 * Refuses, before anything runs, to continue a session whose scripted model
 * takes its replies from `--script` when none was given: its turn would ask
 * a script of no replies, and the session would halt `ERR_PROVIDER` for good
 * (a paused one losing the approval it waited for). The hint is the command
 * with the options the run recorded, its `--script` included.
 */
export function requireScriptGiven(session: SessionRecord | undefined, sid: string, action: 'resume' | 'approve' | 'deny', continueWith: ContinueWith, cwd: string): void {
  // Approving or denying what is not waiting runs nothing (the loop says so: LOOP_APPROVAL_NOT_PENDING), and neither
  // does resuming what waits (it says how to answer).
  if ((action === 'resume') === (session?.status === 'paused')) return;
  // A denial halts without asking the model, unless the agent's repair feeds it back.
  const repair = (session?.agentDefinition as { repair?: unknown } | null | undefined)?.repair;
  if (action === 'deny' && !(typeof repair === 'number' && repair > 0)) return;
  const model = scriptedModelOf(session);
  if (model === undefined || model === 'demo') return;
  const args = continueArgs(continueWith, cwd);
  const still = action === 'resume' ? 'nothing ran' : `nothing ran and session ${sid} still waits`;
  const how = continueWith.script === undefined ? `give the replies file its run used: askloop ${action} ${sid} --script FILE${args.text}` : `give the file its run used: askloop ${action} ${sid}${args.text}`;
  throw usageError(`session ${sid} runs on the scripted model 'scripted:${model}', whose replies come from --script; ${still}. To go on, ${how}${args.dbRedacted ? ` ${REDACTED_DB_NOTE}` : ''}`);
}

/** The id of a session's `scripted:ID` model, if it runs on one. */
function scriptedModelOf(session: SessionRecord | undefined): string | undefined {
  const model = (session?.agentDefinition as { model?: unknown } | null | undefined)?.model;
  return typeof model === 'string' && model.startsWith(SCRIPTED) ? model.slice(SCRIPTED.length) : undefined;
}
