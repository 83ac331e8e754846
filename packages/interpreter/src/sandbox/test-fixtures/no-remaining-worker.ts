/**
 * A sandbox worker for tests: the real `worker-main.ts`, but its tool calls
 * do not say what is left of the run's wall clock (`remainingMs`), as a
 * custom or older worker's would not.
 */
const send = process.send?.bind(process);
if (send !== undefined) {
  process.send = ((message: { type?: string; remainingMs?: number }, ...rest: unknown[]) => {
    if (message?.type === 'tool-call') delete message.remainingMs;
    return (send as (...args: unknown[]) => boolean)(message, ...rest);
  }) as typeof process.send;
}
await import('../worker-main.ts');
