import type { InterruptSignal } from './io.ts';
import type { CommandIo } from './io.ts';
import { knownSecretNames } from './known-secret-names.ts';
import { main } from './main.ts';
import { createSecretRedactor } from './redact-secrets.ts';
import { warnOnUnhandledRejections } from './unhandled-rejection.ts';

/** The signals the first of which stops a command cleanly. */
const INTERRUPTS: readonly InterruptSignal[] = ['SIGINT', 'SIGTERM'];

/** Exit code when standard output's reader has gone: 128 + SIGPIPE, what a shell reports for a tool SIGPIPE ended. */
export const EXIT_BROKEN_PIPE = 141;

/**
 * Wires `main` to the real process. A bug (an error no command turned into a
 * `CliError`) is one line and exit 1; `ASKLOOP_DEBUG=1` adds the stack.
 */
export async function runCli(): Promise<void> {
  // The reader of standard output went away (`askloop sessions | head -1`): stop quietly, as other tools
  // do when SIGPIPE ends them (the shell's 141), not with Node's unhandled EPIPE stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') process.stderr.write(`askloop: cannot write standard output: ${error.message}\n`);
    process.exit(error.code === 'EPIPE' ? EXIT_BROKEN_PIPE : 1);
  });
  const io: CommandIo = {
    stdin: () => process.stdin,
    stdinIsTerminal: process.stdin.isTTY === true,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    stdoutIsTerminal: process.stdout.isTTY === true,
    ...(process.stderr.isTTY === true ? { stderrTerminal: process.stderr } : {}),
    onInterrupt: (handler) => {
      // The first Ctrl-C or SIGTERM asks the command to stop cleanly (a loop halts ERR_CANCELLED, resumable); a second
      // one exits at once, with the shell's code for the signal.
      const listener = (signal: NodeJS.Signals): void => {
        for (const name of INTERRUPTS) process.off(name, listener);
        for (const name of INTERRUPTS) process.once(name, () => process.exit(name === 'SIGINT' ? 130 : 143));
        handler(signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT');
      };
      for (const name of INTERRUPTS) process.on(name, listener);
      return () => {
        for (const name of INTERRUPTS) process.off(name, listener);
      };
    },
  };
  // A plugin's or tool's stray promise must not end every session the host runs (unhandled-rejection.ts); the
  // redactor knows the secrets of the files the command has read by the time one comes.
  warnOnUnhandledRejections((text) => process.stderr.write(text), () => createSecretRedactor(process.env, knownSecretNames(io)), Boolean(process.env['ASKLOOP_DEBUG']));
  try {
    process.exitCode = await main(process.argv.slice(2), io);
  } catch (error) {
    const detail = process.env['ASKLOOP_DEBUG'] ? (error as Error)?.stack ?? String(error) : (error as Error)?.message ?? String(error);
    process.stderr.write(`askloop: unexpected error: ${detail}\n`);
    process.exitCode = 1;
  }
  exitOnceDrained();
}

/** How long a command that has returned may be held by what it left open before the process ends anyway. */
const HELD_AFTER_RETURN_MS = 1000;

/**
 * The command has returned and said what it had to say: nothing of it may keep the process alive. A library it used
 * can leave a handle behind (pg keeps the socket of a connection whose SCRAM authentication failed for want of a
 * password until the server times it out, 60 s). Unref'd, the timer fires only if something still holds the
 * process; it waits for standard output and error to drain, so a slow reader gets everything.
 */
function exitOnceDrained(): void {
  const check = (): void => {
    if (process.stdout.writableLength > 0 || process.stderr.writableLength > 0) {
      setTimeout(check, 100).unref();
      return;
    }
    process.exit();
  };
  setTimeout(check, HELD_AFTER_RETURN_MS).unref();
}
