/**
 * Map keys written as bare names (`{name: "Ada"}`). A map key is an
 * expression, so `name` there reads the variable `name`; when nothing in the
 * program ever sets it, it reads nil, every such key becomes the same empty
 * text and the map silently keeps only its last entry (`{"": "Ada"}`). That
 * is the shape of a JavaScript or Python object literal, which models write
 * often; it is refused before anything runs, naming the fix (quote the key).
 *
 * The check needs to know the names the host binds (`userdata`, …), so it
 * runs only when the caller gives them (`CheckContext.globals`). A name set
 * anywhere in the file — `set`, `for each`, a parameter, an `into`, an event
 * binding, the error variables of an `on error` handler — is taken as the
 * program's variable and left alone.
 */
import { forEachChild, type Node, type Program } from '../ast/index.ts';
import { DEFAULT_GLOBALS } from '../evaluate/evaluation-types.ts';
import type { Finding } from './structure-check.ts';

/** Every name the file binds somewhere: assignment targets, loop variables, parameters, event bindings. */
function boundNames(program: Program): Set<string> {
  // Every run binds these (`self`, which `whisper self, …` writes to), whatever the caller's globals.
  const names = new Set<string>(Object.keys(DEFAULT_GLOBALS));
  for (const definition of program.functions) for (const name of [...definition.required, ...definition.optional, ...definition.returns]) names.add(name);
  const visit = (node: Node): void => {
    if (node.type === 'LValue') names.add(node.name);
    else if (node.type === 'ForEachStatement') names.add(node.variable);
    else if (node.type === 'OnEventStatement' && node.binding !== null) names.add(node.binding);
    else if (node.type === 'OnErrorStatement') {
      // A block with a handler binds these two when a statement fails (generate-body.ts).
      names.add('system_error_message');
      names.add('system_error_code');
    }
    forEachChild(node, visit);
  };
  visit(program);
  return names;
}

/** `SCRIPT_MAP_KEY_UNSET` for each map key, and `SCRIPT_WHISPER_TARGET_UNSET` for each whisper target, that is a bare name neither the file nor the host (`globals`) ever binds. */
export function checkMapKeys(program: Program, globals: ReadonlySet<string>): Finding[] {
  const findings: Finding[] = [];
  let bound: Set<string> | undefined;
  const unset = (name: string): boolean => {
    if (globals.has(name)) return false;
    bound ??= boundNames(program);
    return !bound.has(name);
  };
  const visit = (node: Node): void => {
    if (node.type === 'MapEntry' && node.key.type === 'Identifier' && unset(node.key.name)) {
      const name = node.key.name;
      findings.push({
        code: 'SCRIPT_MAP_KEY_UNSET',
        message: `Map key '${name}' is a variable that is never set, so the key would be empty text; write the key in quotes: {"${name}": …}.`,
        line: node.key.line,
        column: node.key.column,
      });
    } else if (node.type === 'WhisperStatement' && node.handle.type === 'Identifier' && unset(node.handle.name)) {
      // The same trap: the target reads nil, and every such whisper lands in one buffer named "".
      const name = node.handle.name;
      findings.push({
        code: 'SCRIPT_WHISPER_TARGET_UNSET',
        message: `Whisper target '${name}' is a variable that is never set, so the target would be empty text; write 'whisper self, …' for your own notes, or the target in quotes: whisper "${name}", ….`,
        line: node.handle.line,
        column: node.handle.column,
      });
    }
    forEachChild(node, visit);
  };
  visit(program);
  return findings;
}
