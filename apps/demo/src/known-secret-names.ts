/**
 * The variables a command has learnt hold secrets from the files it read
 * (`configSecretNames`, `filledVariables`): kept on its `CommandIo`, so
 * every redactor built for the command afterwards — what it prints, the
 * loop's `secrets()`, the tool hosts' redaction, and `main`'s report of the
 * error it ends with — hides their values too.
 */
import type { CommandIo } from './io.ts';

/** Adds `names` to the variables `io`'s command knows hold secrets. */
export function noteSecretNames(io: Pick<CommandIo, 'secretNames'>, names: Iterable<string>): void {
  const known = (io.secretNames ??= new Set<string>());
  for (const name of names) known.add(name);
}

/** The variables noted so far for `io`'s command, for `createSecretRedactor(io.env, …)` and the other redactors. */
export function knownSecretNames(io: Pick<CommandIo, 'secretNames'>): readonly string[] {
  return io.secretNames === undefined ? [] : [...io.secretNames];
}

/**
 * The variables noted for `io`'s command, read anew at each use: for a redactor made before the command has read all
 * it will (a loop's `secrets()`, a worker's or a viewer's redactor, made before a file read later), which then hides
 * the values of names learnt later too.
 */
export function followKnownSecretNames(io: Pick<CommandIo, 'secretNames'>): () => readonly string[] {
  return () => knownSecretNames(io);
}
