/**
 * The progress renderer a command gets from its io: on standard error (so
 * standard output keeps only the result), coloured and moving only when
 * standard error is a terminal (`NO_COLOR`, `TERM=dumb` and `CI` respected),
 * plain lines in a pipe or a log.
 */
import { followKnownSecretNames } from '../known-secret-names.ts';
import { createStreamRedactor } from '../redact-secrets.ts';
import type { LoopCeilings } from '@askloop/controller';
import type { CommandIo } from '../io.ts';
import { createProgressRenderer, type ProgressRenderer } from './progress-renderer.ts';
import { shouldUseColor, shouldUseMotion } from './terminal-colors.ts';

/** A renderer writing to the command's standard error. */
export function terminalProgress(io: CommandIo, options: { ceilings?: LoopCeilings; turns?: boolean } = {}): ProgressRenderer {
  const terminal = io.stderrTerminal;
  const facts = { isTTY: terminal !== undefined, env: io.env };
  return createProgressRenderer({
    stream: terminal ?? { write: (text: string) => io.stderr(text) },
    color: shouldUseColor(facts),
    motion: shouldUseMotion(facts),
    ...(options.ceilings === undefined ? {} : { ceilings: options.ceilings }),
    ...(options.turns === undefined ? {} : { turns: options.turns }),
    // The reply streams in pieces: a key in it is hidden while it arrives, not only once whole.
    redactStream: createStreamRedactor(io.env, followKnownSecretNames(io)),
  });
}
