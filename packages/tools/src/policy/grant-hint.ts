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

/** The hint appended to a denial of `capability`. */
export function grantHint(capability: Capability): string {
  const unwritable = capability.scopes.find((scope) => scope.includes(',') || scope.trim() !== scope);
  if (unwritable !== undefined) {
    const why = unwritable.includes(',') ? 'contains a comma' : 'starts or ends with white space';
    return `no grant can name it exactly, because the scope ${JSON.stringify(unwritable)} ${why}; grant a pattern that covers it or use another name`;
  }
  return `add the grant ${shellQuote(formatCapability(capability))} to the policy`;
}
