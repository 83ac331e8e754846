#!/usr/bin/env node
/**
 * Adds up the vitest reports every package writes to `.reports/` and prints
 * one line per package and a closing plain line:
 * `N passed, N failed` (plus `, N skipped` when any were skipped).
 *
 * A run can fail while every test passes: an unhandled error, a hook that
 * threw, a forked worker that died (its file's tests are left pending and
 * vitest's own totals count them nowhere). Tests are therefore counted one by
 * one from the JSON report (a test its file never finished, and once a file
 * that failed outside its tests, count as failed), and what went wrong
 * outside tests — from
 * `.reports/problems.json`, written by scripts/vitest-problems-reporter.ts —
 * is printed above the closing line, since CI shows only the tail of its log.
 * Plain JavaScript so any Node can run it, before or after the toolchain.
 * Exits 1 when no report was found (no test ran).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const MESSAGE_LINES = 6;
const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];
let reports = 0;

/** The first lines of a message, indented under its heading; frames of vitest and Node's internals left out. */
function excerpt(text) {
  return String(text)
    .split('\n')
    .filter((line) => line.trim() !== '' && !/node_modules|\(node:|<anonymous>|node:internal/.test(line))
    .slice(0, MESSAGE_LINES)
    .map((line) => `    ${line}`)
    .join('\n');
}

/** Per-test counts from one JSON report, and the problems it shows. */
function countReport(where, report, hasProblemsReport) {
  const counts = { passed: 0, failed: 0, skipped: 0, unfinished: 0, failedFiles: 0 };
  for (const file of report.testResults ?? []) {
    const name = relative(join(root, where), file.name);
    const before = counts.failed + counts.unfinished;
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'passed') counts.passed += 1;
      else if (test.status === 'failed') {
        counts.failed += 1;
        problems.push(`${where}: test failed: ${name} > ${test.fullName}\n${excerpt((test.failureMessages ?? []).join('\n'))}`);
      } else if (file.status === 'failed' && test.status === 'pending') counts.unfinished += 1;
      else counts.skipped += 1;
    }
    // A file that failed with no test failing (an import that threw, an afterAll) fails the run: it counts once.
    if (file.status === 'failed' && counts.failed + counts.unfinished === before) counts.failedFiles += 1;
    // Without the problems report (an older run), the JSON's file message is all there is.
    if (!hasProblemsReport && file.status === 'failed' && file.message) problems.push(`${where}: file failed: ${name}\n${excerpt(file.message)}`);
  }
  return counts;
}

/** What the problems reporter saw outside tests. */
function readProblems(where, file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  for (const error of report.unhandledErrors ?? []) problems.push(`${where}: unhandled ${error.name}: ${error.message}${error.stack ? `\n${excerpt(error.stack)}` : ''}`);
  for (const module of report.modules ?? []) {
    for (const error of module.errors) problems.push(`${where}: ${module.file} (${module.state}): ${error.name}: ${error.message}${error.stack ? `\n${excerpt(error.stack)}` : ''}`);
  }
  if (report.reason && report.reason !== 'passed' && report.reason !== 'failed') problems.push(`${where}: the run ended: ${report.reason}`);
}

for (const folder of ['packages', 'apps']) {
  const parent = join(root, folder);
  if (!existsSync(parent)) continue;
  for (const name of readdirSync(parent).sort()) {
    const where = `${folder}/${name}`;
    const file = join(parent, name, '.reports', 'vitest.json');
    if (!existsSync(file)) continue;
    reports += 1;
    const problemsFile = join(parent, name, '.reports', 'problems.json');
    const counts = countReport(where, JSON.parse(readFileSync(file, 'utf8')), existsSync(problemsFile));
    readProblems(where, problemsFile);
    totals.passed += counts.passed;
    // A test its file never finished (the worker died, a hook failed first) counts as failed.
    totals.failed += counts.failed + counts.unfinished + counts.failedFiles;
    totals.skipped += counts.skipped;
    const unfinished = counts.unfinished > 0 ? `, ${counts.unfinished} unfinished` : '';
    const failedFiles = counts.failedFiles > 0 ? `, ${counts.failedFiles} file${counts.failedFiles === 1 ? '' : 's'} failed outside tests` : '';
    console.log(`${where}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped${unfinished}${failedFiles}`);
  }
}
for (const problem of problems) console.log(`\n${problem}`);
if (problems.length > 0) console.log('');
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped > 0 ? `, ${totals.skipped} skipped` : ''}`);
process.exit(reports === 0 ? 1 : 0);
