/**
 * The "— add the grant … to the policy" hint of capability denials, worded for
 * every reader (a library user, the CLI, the model), the capability written
 * so it can be pasted into a shell (`askloop run --grant …`): quoted when it
 * holds characters a shell would interpret (spaces, `*`, quotes, …). A scope with a comma or with
 * leading or trailing white space cannot be written in a grant at all
 * (`parseCapability` splits at commas and trims scopes), so the hint says so
 * instead of suggesting a grant that would mean something else; nor can a
 * scope a grant would read as a pattern (`/**`, `*.example.com`): the need is
 * built from the program's arguments, and a hint to grant `fs:write:/**` for
 * a file the program named `/**` would hand it the whole file system.
 */
import { formatCapability, type Capability } from './capability.ts';
import { scopeIsPattern } from './scope-match.ts';

const SHELL_SAFE = /^[A-Za-z0-9_./:,@%+=-]+$/;

/** `text` quoted for a POSIX shell when it needs quoting. */
export function shellQuote(text: string): string {
  return SHELL_SAFE.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The first scope of `capability` no grant can name exactly, and why, or undefined. */
function unwritableScope(capability: Capability): { scope: string; why: string } | undefined {
  const covers = '; grant a pattern that covers it or use another name';
  for (const scope of capability.scopes) {
    if (scope.includes(',')) return { scope, why: `contains a comma${covers}` };
    if (scope.trim() !== scope) return { scope, why: `starts or ends with white space${covers}` };
    // No "grant a pattern that covers it" here: the one that names it is already wider than it.
    if (scopeIsPattern(capability.resource, scope)) return { scope, why: `would be a pattern in a grant, covering more than this name (${scope === 'true' ? 'true' : '*'} is a wildcard there); use another name` };
  }
  return undefined;
}

/**
 * The grant that allows `capability`, as a policy's `grants` entry or `--grant` takes it, unquoted
 * (`fs:write:/data/a b.txt`), or undefined when no grant can name it exactly (a comma, white space at an end, a
 * scope a grant reads as a pattern). What a denial carries as
 * `ToolError.grant`, so that a reader need not find it in the message.
 */
export function grantToAdd(capability: Capability): string | undefined {
  return unwritableScope(capability) === undefined ? formatCapability(capability) : undefined;
}

/** The hint appended to a denial of `capability`. */
export function grantHint(capability: Capability): string {
  const grant = grantToAdd(capability);
  if (grant !== undefined) return `add the grant ${shellQuote(grant)} to the policy`;
  const { scope, why } = unwritableScope(capability) as { scope: string; why: string };
  return `no grant can name it exactly, because the scope ${JSON.stringify(scope)} ${why}`;
}
