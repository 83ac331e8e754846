/**
 * Measures the first load of a long running session in `askloop view`: a
 * session of 300 turns in a real SQLite file, opened in Debian's Chromium.
 * Prints the time until the page shows every turn and its charts, the time
 * until it has stopped drawing (the last chart drawn before a second without
 * one), and how many times the charts were drawn. Figures for the changeset and the report, not a test.
 *
 *   node --conditions=@askloop/source --no-node-snapshot scripts/measure-viewer-load.ts [TURNS]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteTranscriptStore } from '@askloop/controller';
import { startViewer } from '../src/view/index.ts';
import { chartRenders, countChartRenders } from '../test/count-chart-renders.ts';
import { launchChromium } from '../test/launch-chromium.ts';
import { seedSession } from '../test/view-seed.ts';

const turns = Number(process.argv[2] ?? 300);
const dir = mkdtempSync(join(tmpdir(), 'askloop-measure-'));
const store = createSqliteTranscriptStore(join(dir, 'sessions.db'));
const sid = await seedSession(store, 'long-running-session', { turns, status: 'running' });
const viewer = await startViewer({ store });
const browser = await launchChromium();
try {
  for (let run = 1; run <= 3; run++) {
    const page = await browser.context.newPage();
    await countChartRenders(page);
    const started = performance.now();
    await page.goto(`${viewer.url}#/sessions/${sid}`);
    await page.locator(`li.turn[data-turn="${turns}"]`).waitFor();
    await page.locator('svg[aria-label="Tokens per turn"]').waitFor();
    const shown = performance.now() - started;
    // Settled: the chart count has not moved for a second (the live feed's backlog is drawn).
    let count = await chartRenders(page);
    let lastChange = performance.now();
    while (performance.now() - lastChange < 1000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const next = await chartRenders(page);
      if (next !== count) {
        count = next;
        lastChange = performance.now();
      }
    }
    console.log(`run ${run}: ${turns} turns, all shown after ${Math.round(shown)} ms, settled after ${Math.round(lastChange - started)} ms, ${count} chart renders`);
    await page.close();
  }
} finally {
  await browser.close();
  await viewer.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
