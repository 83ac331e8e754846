/**
 * The `askloop` executable: wires `main` to the real process.
 */
import { buffer } from 'node:stream/consumers';
import { main } from './main.ts';

const code = await main(process.argv.slice(2), {
  readStdin: async () => new Uint8Array(await buffer(process.stdin)),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  env: process.env,
});
process.exitCode = code;
