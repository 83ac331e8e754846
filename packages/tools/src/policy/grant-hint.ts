/**
 * The "— add the grant … to the policy" hint of capability denials, worded for
 * every reader (a library user, the CLI, the model), the capability written
 * so it can be pasted into a shell (`askloop run --grant …`): quoted when it
 * holds characters a shell would interpret (spaces, `*`, quotes, …). A scope with a comma or with
 * leading or trailing white space cannot be written in a grant at all
 * (`parseCapability` splits at commas and trims scopes), so the hint says so
 * instead of suggesting a grant that would mean something else.
 */
import { formatCapability, type Capability } from './capability.ts';

const SHELL_SAFE = /^[A-Za-z0-9_./:,@%+=-]+$/;

/** `text` quoted for a POSIX shell when it needs quoting. */
export function shellQuote(text: string): string {
  return SHELL_SAFE.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The first scope of `capability` no grant can write (a comma, white space at an end), or undefined. */
function unwritableScope(capability: Capability): string | undefined {
  return capability.scopes.find((scope) => scope.includes(',') || scope.trim() !== scope);
}

/**
 * The grant that allows `capability`, as a policy's `grants` entry or `--grant` takes it, unquoted
 * (`fs:write:/data/a b.txt`), or undefined when no grant can name it exactly. What a denial carries as
 * `ToolError.grant`, so that a reader need not find it in the message.
 */
export function grantToAdd(capability: Capability): string | undefined {
  return unwritableScope(capability) === undefined ? formatCapability(capability) : undefined;
}

/** The hint appended to a denial of `capability`. */
export function grantHint(capability: Capability): string {
  const grant = grantToAdd(capability);
  if (grant !== undefined) return `add the grant ${shellQuote(grant)} to the policy`;
  const unwritable = unwritableScope(capability) as string;
  const why = unwritable.includes(',') ? 'contains a comma' : 'starts or ends with white space';
  return `no grant can name it exactly, because the scope ${JSON.stringify(unwritable)} ${why}; grant a pattern that covers it or use another name`;
}
