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
    const scope = globalThis as unknown as { __chartRenders: number; document: Document; MutationObserver: typeof MutationObserver };
    scope.__chartRenders = 0;
    new scope.MutationObserver((records) => {
      for (const record of records) {
        record.addedNodes.forEach((node) => {
          const element = node as Element;
          if (element.nodeType === 1 && (element.matches('svg[aria-label="Tokens per turn"]') || element.querySelector('svg[aria-label="Tokens per turn"]') !== null)) scope.__chartRenders++;
        });
      }
    }).observe(scope.document, { childList: true, subtree: true });
  });
}

/** How many times the current page has drawn its charts since it loaded. */
export function chartRenders(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as unknown as { __chartRenders: number }).__chartRenders);
}
