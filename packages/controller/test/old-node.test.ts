/**
 * On Node 20, importing the built package fails with one clear error naming
 * the Node it needs (a package's Node version check), not earlier, when Node
 * links the bundle: its SQLite transcript store used to import `node:sqlite`,
 * which Node 20 does not have. Built and imported as a user's project would
 * (`scripts/old-node-import.ts`).
 */
import { describeOldNodeImport } from '../../../scripts/old-node-import.ts';

describeOldNodeImport('@askloop/controller', { namesItself: false });
