/**
 * Debian's Chromium driven by playwright-core, for the viewer's browser test
 * and screenshot: the system browser at /usr/bin/chromium (playwright never
 * downloads one), headless, no sandbox (CI containers run as root), no
 * background traffic, and a fresh profile in a temporary directory that
 * `close()` removes.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** The flags every run uses. */
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** True when the browser is installed. */
export const hasChromium = (): boolean => existsSync(CHROMIUM_PATH);

/** A browser context on a fresh profile; `close()` ends the browser and deletes the profile. */
export interface ChromiumSession {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Launches Chromium with {@link CHROMIUM_FLAGS} plus `extraArgs`. A persistent
 * context is how playwright takes a user-data dir (it refuses
 * `--user-data-dir` among the arguments).
 */
export async function launchChromium(options: { viewport?: { width: number; height: number }; extraArgs?: readonly string[] } = {}): Promise<ChromiumSession> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'askloop-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      // The page is served over loopback HTTP: no proxy, whatever the environment says.
      args: [...CHROMIUM_FLAGS, '--no-proxy-server', ...(options.extraArgs ?? [])],
      viewport: options.viewport ?? { width: 1280, height: 900 },
    });
    return {
      context,
      async close() {
        await context.close();
        rmSync(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw error;
  }
}
