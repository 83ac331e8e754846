/**
 * The scripted models a stored session needs when another `askloop` process
 * continues it: `scripted:script` from `--script FILE` (the same file as the
 * run) and the demo's embedded model, each without the replies the session
 * already used.
 */
import type { TranscriptStore } from '@askloop/controller';
import { DEMO_REPLIES } from '../demo/demo-script.ts';
import type { CommandIo } from '../io.ts';
import { unusedReplies } from './open-session-loop.ts';
import { readScript } from './read-script.ts';

/** Replies by scripted model id, for `openSessionLoop({ scripts })`. */
export async function continueScripts(store: TranscriptStore, sid: string, scriptFile: string | undefined, io: CommandIo): Promise<Record<string, string[]>> {
  const script = scriptFile === undefined ? [] : await readScript(scriptFile, io);
  return { script: await unusedReplies(store, sid, script), demo: await unusedReplies(store, sid, DEMO_REPLIES) };
}
