/**
 * The names a program file binds somewhere: assignment targets (`set`, an
 * unpack, `into`), loop variables, parameters and return names, event
 * bindings, and the two error variables an `on error` handler sets. A name
 * read in the file that is in none of these and is no global can only ever
 * read nil: the check warns about it and the run refuses to read it
 * (`SCRIPT_VARIABLE_UNSET`); as a map key or a whisper target it is refused
 * before the run. The set is per file, not per function: a name set anywhere
 * in the file counts, so nothing a program may mean is refused.
 */
import { forEachChild } from './children.ts';
import type { Node } from './node.ts';
import type { Program } from './program.ts';

/** Every name `program` binds anywhere (globals not included). */
export function boundNames(program: Program): Set<string> {
  const names = new Set<string>();
  for (const definition of program.functions) for (const name of [...definition.required, ...definition.optional, ...definition.returns]) names.add(name);
  // Iterative: a hand-built tree may be deeper than the parser ever builds.
  const pending: Node[] = [program];
  const push = (child: Node): void => {
    pending.push(child);
  };
  while (pending.length > 0) {
    const node = pending.pop() as Node;
    if (node.type === 'LValue') names.add(node.name);
    else if (node.type === 'ForEachStatement') names.add(node.variable);
    else if (node.type === 'OnEventStatement' && node.binding !== null) names.add(node.binding);
    else if (node.type === 'OnErrorStatement') {
      // A block with a handler binds these two when a statement fails (generate-body.ts).
      names.add('system_error_message');
      names.add('system_error_code');
    }
    forEachChild(node, push);
  }
  return names;
}
