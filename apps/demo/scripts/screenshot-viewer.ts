/**
 * Re-takes docs/viewer.png, the README's picture of `askloop view`: runs the
 * viewer test's sessions into a temporary SQLite file, serves them, and
 * photographs the finished session at 1280x900 in Debian's Chromium.
 *
 *   pnpm --filter askloop screenshot:viewer
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startViewer } from '../src/view/index.ts';
import { hasChromium, CHROMIUM_PATH, launchChromium } from '../test/launch-chromium.ts';
import { createViewerFixture } from '../test/view-fixture.ts';

const output = resolve(dirname(fileURLToPath(import.meta.url)), '../../../docs/viewer.png');

if (!hasChromium()) {
  process.stderr.write(`${CHROMIUM_PATH} is missing: apt-get install chromium\n`);
  process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), 'askloop-screenshot-'));
const fixture = await createViewerFixture(join(dir, 'sessions.db'));
const viewer = await startViewer({ store: fixture.store });
const browser = await launchChromium({ viewport: { width: 1280, height: 900 } });
try {
  const page = await browser.context.newPage();
  await page.goto(`${viewer.url}#/sessions/${fixture.done}`);
  await page.locator('li.turn[data-turn="3"]').waitFor();
  await page.screenshot({ path: output });
  process.stdout.write(`wrote ${output}\n`);
} finally {
  await browser.close();
  await viewer.close();
  await fixture.close();
  rmSync(dir, { recursive: true, force: true });
}
