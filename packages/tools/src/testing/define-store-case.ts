/**
 * The shape of a case of the tool store conformance table, and the helper
 * that gives each case a manual clock and a fixture it always closes.
 */
import { createManualClock, type ManualClock } from '../clock.ts';
import type { ToolStores } from '../stores/store-types.ts';

/** Stores under test, and more connections to the same data. */
export interface ToolStoreFixture {
  readonly stores: ToolStores;
  /** Another connection (or handle) to the same data, on the same clock. */
  connect(): ToolStores | Promise<ToolStores>;
  /** Closes the stores and every connection `connect` made. */
  close(): void | Promise<void>;
}

/** Makes a fixture over new, empty stores driven by `clock`. */
export type MakeToolStores = (clock: ManualClock) => ToolStoreFixture | Promise<ToolStoreFixture>;

/** One case of the table. */
export interface ToolStoreCase {
  readonly name: string;
  /** Resolves when the stores behave; rejects with an `AssertionError` (or the store's error) when not. */
  run(makeStores: MakeToolStores): Promise<void>;
}

/** What a case's body works with. */
export interface StoreCaseContext {
  readonly stores: ToolStores;
  readonly clock: ManualClock;
  readonly connect: () => Promise<ToolStores>;
}

/** A case named `name` running `body` over a new fixture on a clock at 2026-01-01. */
export const defineStoreCase = (name: string, body: (context: StoreCaseContext) => Promise<void>): ToolStoreCase => ({
  name,
  async run(makeStores) {
    const clock = createManualClock(Date.UTC(2026, 0, 1));
    const fixture = await makeStores(clock);
    try {
      await body({ stores: fixture.stores, clock, connect: async () => fixture.connect() });
    } finally {
      await fixture.close();
    }
  },
});
