/**
 * The vitest settings every package shares. Each package's `vitest.config.ts`
 * calls `packageTestConfig()` and may extend the result.
 *
 * - Workspace packages resolve to their TypeScript sources through the
 *   `@askloop/source` export condition, so tests never need a build first.
 * - Tests run in forked processes with `--no-node-snapshot`, which isolated-vm
 *   requires on Node 24.
 * - Besides the human-readable reporter, every run writes a JSON report to
 *   `.reports/vitest.json`, and `.reports/problems.json` with the errors that
 *   report leaves out (unhandled ones, a failing hook); `.ci/run` adds these
 *   up into its closing lines.
 */
import { defineConfig, type ViteUserConfig } from 'vitest/config';
import { ProblemsReporter } from './scripts/vitest-problems-reporter.ts';

export function packageTestConfig(overrides: ViteUserConfig['test'] = {}): ViteUserConfig {
  return defineConfig({
    resolve: { conditions: ['@askloop/source'] },
    ssr: { resolve: { conditions: ['@askloop/source'] } },
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      pool: 'forks',
      execArgv: ['--no-node-snapshot'],
      reporters: ['default', 'json', new ProblemsReporter()],
      outputFile: { json: '.reports/vitest.json' },
      testTimeout: 30_000,
      // Hooks start real parts (Chromium, a PostgreSQL cluster, sandbox workers): on a loaded 2-core machine the
      // viewer's browser hook once took over vitest's default 10 s.
      hookTimeout: 60_000,
      // expect.poll gives up after 1 s by default, and a poll whose check itself waits (a Playwright locator's
      // innerText waits for its element) then fails as "didn't resolve in time": on a loaded 2-core CI machine a
      // viewer page once took longer than that to show an error banner. The test's own timeout still bounds it.
      expect: { poll: { timeout: 10_000 } },
      ...overrides,
    },
  });
}
