/**
 * `askloop sessions --config FILE` ends with the `show` command that finds the
 * same store: with the config, absolute, so it works pasted in any folder.
 * Regression: it said `askloop show SID`, which looked in the default store.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-sessions-footer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('sessions --config FILE: the footer gives show with the config', async () => {
  const project = join(dir, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'askloop.config.yaml'), 'store:\n  path: s.db\n');
  writeFileSync(join(project, 'replies.json'), JSON.stringify([envelope('emit "<<<LOOP:DONE>>> ok"')]));
  expect(await main(['run', 'x', '--script', 'replies.json'], captureIo({ cwd: project }))).toBe(0);
  const listed = captureIo({ cwd: dir });
  expect(await main(['sessions', '--config', join(project, 'askloop.config.yaml')], listed), listed.err).toBe(0);
  expect(listed.out).toContain(`askloop show SID --config ${join(project, 'askloop.config.yaml')}`);
});
