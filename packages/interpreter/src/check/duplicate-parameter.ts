/**
 * A function that names a parameter twice (`needs a, a`, `needs a optional
 * a`): the second could never be read, and as JavaScript the function would
 * not compile. The check refuses it (`SCRIPT_DUPLICATE_PARAMETER`); code
 * generation refuses it too, for a program that skipped the check. One rule
 * and one wording for both.
 */
import type { FunctionDefinition } from '../ast/index.ts';

/** Why `definition` may not run because it names a parameter twice, or undefined when every parameter has its own name. */
export function duplicateParameterProblem(definition: FunctionDefinition): string | undefined {
  const parameters = [...definition.required, ...definition.optional];
  const twice = parameters.find((name, index) => parameters.indexOf(name) !== index);
  return twice === undefined ? undefined : `Function '${definition.name}' names the parameter '${twice}' twice; give each parameter its own name.`;
}
