/**
 * The parse worker thread: parses what the host sends and answers with the
 * plain result (structured-cloned back). Started by `createParseSupervisor`
 * with a heap limit; the host terminates it at a deadline and starts another.
 */
import { parentPort } from 'node:worker_threads';
import { parse } from './parse.ts';

/** A request from the host. */
export interface ParseRequest {
  readonly id: number;
  readonly source: string;
  readonly fileName?: string;
}

const port = parentPort;
if (port !== null) {
  port.on('message', (request: ParseRequest) => {
    const result = parse(request.source, request.fileName === undefined ? {} : { fileName: request.fileName });
    port.postMessage({ id: request.id, result });
  });
}
