/**
 * Counts how often the viewer page draws its charts, from outside the page:
 * a MutationObserver (added before any page script runs) counts every element
 * added to the document that holds the token chart. The page itself carries
 * no test hook.
 */
import type { Page } from 'playwright-core';

/** Starts counting on every page `page` loads from now on; read the count with {@link chartRenders}. */
export async function countChartRenders(page: Page): Promise<void> {
  await page.addInitScript(() => {
    // The few DOM shapes used here (the test files are typed without the DOM library).
    interface Added { nodeType: number; matches(selector: string): boolean; querySelector(selector: string): unknown }
    interface Observer { observe(target: unknown, options: { childList: boolean; subtree: boolean }): void }
    const scope = globalThis as unknown as { __chartRenders: number; document: unknown; MutationObserver: new (callback: (records: { addedNodes: Iterable<Added> }[]) => void) => Observer };
    const chart = 'svg[aria-label="Tokens per turn"]';
    scope.__chartRenders = 0;
    new scope.MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) if (node.nodeType === 1 && (node.matches(chart) || node.querySelector(chart) !== null)) scope.__chartRenders++;
      }
    }).observe(scope.document, { childList: true, subtree: true });
  });
}

/** How many times the current page has drawn its charts since it loaded. */
export function chartRenders(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as unknown as { __chartRenders: number }).__chartRenders);
}
