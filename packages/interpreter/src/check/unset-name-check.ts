/**
 * Names read that nothing ever sets. A name the file never binds (no `set`,
 * `for each`, parameter, `into`, event binding or `on error` handler) and the
 * host does not bind either can only read nil:
 *
 * - as a map key (`{name: "Ada"}`, the shape of a JavaScript or Python object
 *   literal that models write by habit) every such key becomes the same empty
 *   text and the map silently keeps only its last entry: refused before
 *   anything runs, `SCRIPT_MAP_KEY_UNSET`, naming the fix (quote the key);
 * - as a whisper target (`whisper plan, …`) every such whisper lands in one
 *   buffer named "": refused the same way, `SCRIPT_WHISPER_TARGET_UNSET`;
 * - anywhere else (a typo such as `"sum " + totl`) a **warning**,
 *   `SCRIPT_VARIABLE_UNSET`: the run raises that error when it reaches the
 *   read (catchable, and fed back to the model), so a branch never taken
 *   still runs as the reference runs it.
 *
 * The check needs the names the host binds (`userdata`, …), so it runs only
 * when the caller gives them (`CheckContext.globals`).
 */
import { boundNames } from '../ast/bound-names.ts';
import { type Node, type Program, walk } from '../ast/index.ts';
import { DEFAULT_GLOBALS } from '../evaluate/evaluation-types.ts';
import type { Finding } from './structure-check.ts';
import { type UnsetRead, unsetVariableMessages } from './unset-variable-message.ts';

/** The finding for a read of `name`, an unset name, given where it sits (`parent`). */
function findingFor(node: Node & { readonly name: string }, ancestors: readonly Node[], messageFor: (name: string, read: UnsetRead) => string): Finding {
  const parent = ancestors.at(-1);
  const { name, line, column } = node;
  if (parent?.type === 'MapEntry' && parent.key === node) {
    return { code: 'SCRIPT_MAP_KEY_UNSET', message: `Map key '${name}' is a variable that is never set, so the key would be empty text; write the key in quotes: {"${name}": …}.`, line, column };
  }
  if (parent?.type === 'WhisperStatement' && parent.handle === node) {
    const message = `Whisper target '${name}' is a variable that is never set, so the target would be empty text; write 'whisper self, …' for your own notes, or the target in quotes: whisper "${name}", ….`;
    return { code: 'SCRIPT_WHISPER_TARGET_UNSET', message, line, column };
  }
  const where = node.type === 'Placeholder' ? 'placeholder' : parent?.type === 'InterpolationPart' ? 'hole' : 'code';
  const inFunction = ancestors.some((ancestor) => ancestor.type === 'FunctionDefinition');
  return { code: 'SCRIPT_VARIABLE_UNSET', message: messageFor(name, { where, inFunction }), line, column, severity: 'warning' };
}

/** A finding for each read of a name that neither the file nor the host (`globals`) ever binds. */
export function checkUnsetNames(program: Program, globals: ReadonlySet<string>): Finding[] {
  const findings: Finding[] = [];
  let known: Set<string> | undefined;
  const messageFor = unsetVariableMessages(() => known ?? []);
  walk(program, (node, ancestors) => {
    if (node.type !== 'Identifier' && node.type !== 'Placeholder') return;
    if (globals.has(node.name) || Object.hasOwn(DEFAULT_GLOBALS, node.name)) return;
    // Every run binds DEFAULT_GLOBALS (`self`, which `whisper self, …` writes to), whatever the caller's globals.
    known ??= new Set([...boundNames(program), ...globals, ...Object.keys(DEFAULT_GLOBALS)]);
    if (!known.has(node.name)) findings.push(findingFor(node, ancestors, messageFor));
  });
  return findings;
}
