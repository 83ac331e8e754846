/**
 * A sandbox worker for tests that says it is ready and then never answers a
 * run: a wedged worker, which only the host's backstop can end.
 */
process.send?.({ type: 'ready' });
process.on('message', () => {});
// Stay alive until the host kills this process.
setInterval(() => {}, 60_000);
