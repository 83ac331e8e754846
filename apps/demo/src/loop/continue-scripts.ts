/**
 * The scripted models a stored session needs when another `askloop` process
 * continues it: from `--script FILE` (the same file as the run: a JSON array
 * of replies, or `{"ID": [replies…]}` as `askloop mcp serve --script` takes)
 * and the demo's embedded model, each without the replies the session
 * already used; and the refusal to continue a scripted session without its
 * `--script`.
 */
import type { SessionRecord, TranscriptStore } from '@askloop/controller';
import { resolve } from 'node:path';
import { usageError } from '../cli-error.ts';
import { readServeScript } from '../commands/mcp/load-serve-agents.ts';
import { DEMO_REPLIES } from '../demo/demo-script.ts';
import type { CommandIo } from '../io.ts';
import { continueArgs, REDACTED_DB_NOTE, type ContinueWith } from './continue-hint.ts';
import { unusedReplies } from './open-session-loop.ts';
import { repairOf } from './repair-hint.ts';

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
  if (!continuesTheLoop(session, action)) return;
  const model = scriptedModelOf(session);
  if (model === undefined || model === 'demo') return;
  const args = continueArgs(continueWith, cwd);
  const still = action === 'resume' ? 'nothing ran' : `nothing ran and session ${sid} still waits`;
  const how = continueWith.script === undefined ? `give the replies file its run used: askloop ${action} ${sid} --script FILE${args.text}` : `give the file its run used: askloop ${action} ${sid}${args.text}`;
  throw usageError(`session ${sid} runs on the scripted model 'scripted:${model}', whose replies come from --script; ${still}. To go on, ${how}${args.dbRedacted ? ` ${REDACTED_DB_NOTE}` : ''}`);
}

/** Whether `action` goes on with the session's loop (runs a program, asks the model), so needs what its run had. */
function continuesTheLoop(session: SessionRecord | undefined, action: 'resume' | 'approve' | 'deny'): boolean {
  // Approving or denying what is not waiting runs nothing (the loop says so: LOOP_APPROVAL_NOT_PENDING), and neither
  // does resuming what waits (it says how to answer).
  if ((action === 'resume') === (session?.status === 'paused')) return false;
  // A denial halts without asking the model, unless the agent's repair feeds it back.
  return !(action === 'deny' && repairOf(session?.agentDefinition) === 0);
}

/** The id of a session's `scripted:ID` model, if it runs on one. */
function scriptedModelOf(session: SessionRecord | undefined): string | undefined {
  const model = (session?.agentDefinition as { model?: unknown } | null | undefined)?.model;
  return typeof model === 'string' && model.startsWith(SCRIPTED) ? model.slice(SCRIPTED.length) : undefined;
}

/**
 * Refuses (`CLI_USAGE`) to continue a session on another config file than the one its run used (`recorded`, kept
 * with the session; `used`, the one this command found or was given): the config gives the built-in providers their
 * base URL, prices, timeout and retries, so continuing without it sent the conversation to the provider's own API
 * and dropped the prices a cost ceiling counts with. Nothing ran; the message gives the command with the config.
 */
export function requireRunConfig(session: SessionRecord | undefined, used: string | undefined, recorded: string | undefined, sid: string, action: 'resume' | 'approve' | 'deny', continueWith: ContinueWith, cwd: string): void {
  if (recorded === undefined || (used !== undefined && resolve(cwd, used) === resolve(cwd, recorded)) || !continuesTheLoop(session, action)) return;
  const args = continueArgs({ ...continueWith, config: recorded }, cwd);
  const found = used === undefined ? 'no config file is in use here' : `this command uses ${used}`;
  throw usageError(`session ${sid} ran with --config ${recorded}, and ${found}: its providers' settings (base URL, prices, timeout) and plugins would not be the run's; nothing ran. To go on, give it: askloop ${action} ${sid}${args.text}${args.dbRedacted ? ` ${REDACTED_DB_NOTE}` : ''}`);
}
