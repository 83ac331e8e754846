/**
 * The variables a command has learnt hold secrets from the files it read
 * (`configSecretNames`, `referencedVariables`): kept on its `CommandIo`, so
 * every redactor built for the command afterwards — what it prints, the
 * loop's `secrets()`, the tool hosts' redaction, and `main`'s report of the
 * error it ends with — hides their values too.
 */
import type { CommandIo } from './io.ts';

/** Adds `names` to the variables `io`'s command knows hold secrets. */
export function noteSecretNames(io: CommandIo, names: Iterable<string>): void {
  const known = (io.secretNames ??= new Set<string>());
  for (const name of names) known.add(name);
}

/** The variables noted so far for `io`'s command, for `createSecretRedactor(io.env, …)` and the other redactors. */
export function knownSecretNames(io: Pick<CommandIo, 'secretNames'>): readonly string[] {
  return io.secretNames === undefined ? [] : [...io.secretNames];
}
