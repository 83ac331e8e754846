/**
 * What `askloop view` serves, for tests that look for a secret in it: the
 * real CLI in a child process (`view --no-open`), its API's list and each
 * given session, then stopped with Ctrl-C.
 */
import { spawn } from 'node:child_process';
import { CLI_SOURCE } from './spawn-cli.ts';

/** `askloop view ARGS` run in `cwd` with `env` added: the text of `/api/sessions` and of `/api/sessions/SID` for each of `sids`. */
export async function viewerAnswers(args: readonly string[], sids: readonly string[], options: { readonly cwd: string; readonly env: Readonly<Record<string, string>> }): Promise<string> {
  const child = spawn(process.execPath, ['--conditions=@askloop/source', '--no-warnings', '--no-node-snapshot', CLI_SOURCE, 'view', '--no-open', ...args], { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
      child.stdout.setEncoding('utf8').on('data', (text: string) => {
        stdout += text;
        const match = /askloop view: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      child.on('close', () => reject(new Error(`exited before printing the URL: ${stderr}`)));
    });
    let served = await (await fetch(new URL('/api/sessions', url))).text();
    for (const sid of sids) served += await (await fetch(new URL(`/api/sessions/${sid}`, url))).text();
    return served;
  } finally {
    child.kill('SIGINT');
  }
}
