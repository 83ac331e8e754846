/**
 * Temporary folders for tests that run the CLI on real files: one made per
 * test file and removed after its tests, the files a test needs written into
 * it, and a project with a config file and a plugin package installed. Each
 * test file used to repeat the `mkdtemp` and the `afterAll` that removes it
 * (and some never removed theirs).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * A fresh folder `askloop-NAME-XXXXXX` in the system's temporary folder,
 * removed with everything in it after the test file's tests (or the describe
 * block's). Call it where a hook may be registered: at a file's top level or
 * in a `describe`, not inside a test.
 */
export function tempFolder(name: string): string {
  const folder = mkdtempSync(join(tmpdir(), `askloop-${name}-`));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

/** Writes `files` (a path relative to `folder`, its folders made as needed → the text) into `folder`; returns `folder`. */
export function writeFiles(folder: string, files: Readonly<Record<string, string>>): string {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, name)), { recursive: true });
    writeFileSync(join(folder, name), text);
  }
  return folder;
}

/**
 * A maker of folders holding given files: each call makes a fresh folder
 * (under one {@link tempFolder} of `name`, so all are removed after the tests)
 * with `files` written into it, and returns its path.
 */
export function tempFolders(name: string): (files?: Readonly<Record<string, string>>) => string {
  const root = tempFolder(name);
  return (files = {}) => writeFiles(mkdtempSync(join(root, 'f-')), files);
}

/**
 * The folder `name` under `root` as a project: `config` as its
 * askloop.config.yaml, and the plugin package at `plugin` (a fixture's
 * folder) installed in its node_modules under the folder's own name, as
 * `npm install` would put it.
 */
export function pluginProject(root: string, name: string, config: string, plugin: string): string {
  const folder = join(root, name);
  mkdirSync(join(folder, 'node_modules'), { recursive: true });
  writeFileSync(join(folder, 'askloop.config.yaml'), config);
  symlinkSync(plugin, join(folder, 'node_modules', basename(plugin)), 'dir');
  return folder;
}
