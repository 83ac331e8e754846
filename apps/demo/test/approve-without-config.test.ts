/**
 * `askloop approve|deny SID` without the config whose plugin supplies the
 * session's provider fails (LOOP_PROVIDER_NOT_FOUND) and records nothing:
 * the session stays paused, and approve or deny with the config still works —
 * for a program held for approval and for a v1 `await`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { pluginProject, tempFolder } from './temp-folder.ts';

const PLUGIN = fileURLToPath(new URL('./fixtures/plugin-project/askloop-plugin-gated', import.meta.url));
const temp = tempFolder('approve-config');

const CONFIG = `plugins:
  - askloop-plugin-gated
agents:
  launcher:
    model: gated:launch
    policy:
      allow: ["tool.gated.*"]
  waiter:
    model: gated:wait
    dialect: v1
`;

/** A project with the config and its plugin, and a folder outside it. */
function project(name: string): { dir: string; elsewhere: string } {
  const dir = pluginProject(temp, name, CONFIG, PLUGIN);
  const elsewhere = join(temp, `${name}-elsewhere`);
  mkdirSync(elsewhere);
  return { dir, elsewhere };
}

async function cli(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo({ cwd });
  const code = await main(args, io);
  return { code, out: io.out, err: io.err };
}

describe('approve and deny record nothing when the session cannot go on', () => {
  for (const [agent, reason] of [['launcher', 'AWAITING_APPROVAL'], ['waiter', 'V1_AWAIT']] as const) {
    for (const action of ['approve', 'deny'] as const) {
      it(`${action} of a ${reason} pause without the config: refused (approve: the run's config is required; deny: LOOP_PROVIDER_NOT_FOUND), still paused, then ${action} with the config works`, async () => {
        const { dir, elsewhere } = project(`${agent}-${action}`);
        const db = join(dir, 'sessions.db');
        const run = await cli(['run', 'go', '--agent', agent, '--db', db, '--json'], dir);
        expect(run.code, run.err).toBe(4);
        const { sid } = JSON.parse(run.out) as { sid: string };
        expect(JSON.parse(run.out)).toMatchObject({ status: 'PAUSED', reason });

        const failed = await cli([action, sid, '--db', db], elsewhere);
        const config = join(dir, 'askloop.config.yaml');
        if (action === 'approve') {
          // The run's config, kept with the session, is required before anything runs (its providers' settings too).
          expect(failed.code).toBe(2);
          expect(failed.err).toContain(`session ${sid} ran with --config ${config}, and no config file is in use here`);
          expect(failed.err).toContain(`give it: askloop ${action} ${sid} --db ${db} --config ${config} (CLI_USAGE)`);
        } else {
          // A denial asks no model: the loop itself says what is missing.
          expect(failed.code).toBe(1);
          expect(failed.err).toContain('LOOP_PROVIDER_NOT_FOUND');
          // What to do: the same command with the run's options (kept with the session), the config among them.
          expect(failed.err).toContain(`nothing was recorded and session ${sid} still waits. Give the options of the run (its --config loads the plugins): askloop ${action} ${sid} --db ${db} --config ${config}`);
        }

        const sessions = JSON.parse((await cli(['sessions', '--db', db, '--json'], elsewhere)).out) as { status: string }[];
        expect(sessions).toMatchObject([{ status: 'paused' }]);
        const again = await cli([action, sid, '--db', db, '--json'], dir);
        expect(again.err).not.toContain('LOOP_APPROVAL_NOT_PENDING');
        expect(JSON.parse(again.out)).toMatchObject(action === 'approve' ? { status: 'DONE' } : { status: 'HALT', reason: 'ERR_PERMISSIONS' });
      });
    }
  }
});
