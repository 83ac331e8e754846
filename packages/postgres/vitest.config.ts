import { packageTestConfig } from '../../vitest.shared.ts';

// One PostgreSQL server for the run (test/global-setup.ts); each test file makes its own database.
export default packageTestConfig({ globalSetup: ['./test/global-setup.ts'], testTimeout: 60_000, hookTimeout: 60_000 });
