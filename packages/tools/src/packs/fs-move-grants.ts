/**
 * What `tool.fs.Move` of a directory needs beyond the two paths it names. A
 * directory carries everything under it: each entry is read out of the source
 * (its content lands where the destination's grants may let the program read
 * it), removed from there, and written under the destination. The needs checked
 * before the call cover the named paths only, so with `fs:read,delete:/inbox/*`
 * and `fs:read,write:/public/**` a move of `/inbox/sub` to `/public/sub`
 * handed the program `/inbox/sub/secret.txt`, which no grant let it read.
 * So a move of a directory walks it first (links are entries, never followed)
 * and checks, for every entry, what a move of that entry alone would need.
 */
import { detailsOf, isToolError, ToolError } from '../errors/tool-error.ts';
import type { Capability } from '../policy/capability.ts';
import { walkEntries } from './fs-list-walk.ts';

/** Asks the policy for one capability; throws its denial (the tool context's `authorize`). */
type Authorize = (capability: Capability) => void;

/**
 * Why the directory at `real` (virtual `sourcePath`) may not be moved to
 * `destinationPath`: the denial for the first entry under it, in path order,
 * that lacks `fs:read` or `fs:delete` at its own path or `fs:write` at the path
 * it would have; undefined when every entry is covered. A refused subdirectory
 * is not entered (the move fails anyway); the rest is still walked, so which
 * entry is named does not depend on the order the OS lists entries in.
 */
export async function refuseDirectoryMove(real: string, sourcePath: string, destinationPath: string, signal: AbortSignal, authorize: Authorize): Promise<ToolError | undefined> {
  let first: { path: string; error: ToolError } | undefined;
  const check = (entryPath: string): boolean => {
    const destination = `${destinationPath === '/' ? '' : destinationPath}${entryPath.slice(sourcePath.length)}`;
    const needs: [Capability, string][] = [
      [{ resource: 'fs', verbs: ['read'], scopes: [entryPath] }, 'source_path'],
      [{ resource: 'fs', verbs: ['delete'], scopes: [entryPath] }, 'source_path'],
      [{ resource: 'fs', verbs: ['write'], scopes: [destination] }, 'destination_path'],
    ];
    for (const [need, argument] of needs) {
      try {
        authorize(need);
      } catch (error) {
        if (!isToolError(error)) throw error;
        if (first === undefined || entryPath < first.path) {
          const advice = `moving the directory '${sourcePath}' moves '${entryPath}' with it, to '${destination}'; a directory moves only when the grants cover everything under it (fs:read and fs:delete under the source, fs:write under the destination)`;
          first = { path: entryPath, error: new ToolError(error.code, `${error.message} (${advice})`, { ...detailsOf(error), argument }) };
        }
        return false;
      }
    }
    return true;
  };
  for await (const entry of walkEntries(real, sourcePath, { recursive: true, signal, enter: check, sizes: false })) {
    if (entry.type !== 'dir') check(entry.path);
  }
  return first?.error;
}
