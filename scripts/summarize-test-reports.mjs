#!/usr/bin/env node
/**
 * Adds up the vitest JSON reports every package writes to
 * `.reports/vitest.json` and prints one plain line:
 * `N passed, N failed` (plus `, N skipped` when any were skipped).
 * Plain JavaScript so any Node can run it, before or after the toolchain.
 * Exits 1 when no report was found (no test ran).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
let passed = 0;
let failed = 0;
let skipped = 0;
let reports = 0;
for (const folder of ['packages', 'apps']) {
  const parent = join(root, folder);
  if (!existsSync(parent)) continue;
  for (const name of readdirSync(parent).sort()) {
    const file = join(parent, name, '.reports', 'vitest.json');
    if (!existsSync(file)) continue;
    const report = JSON.parse(readFileSync(file, 'utf8'));
    reports += 1;
    passed += report.numPassedTests ?? 0;
    failed += (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    console.log(`${folder}/${name}: ${report.numPassedTests ?? 0} passed, ${report.numFailedTests ?? 0} failed, ${(report.numPendingTests ?? 0) + (report.numTodoTests ?? 0)} skipped`);
  }
}
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
process.exit(reports === 0 ? 1 : 0);
