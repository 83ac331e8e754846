/** The source of every conformance case (`test/conformance/<suite>/<case>/input.ns`), valid or not. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const conformanceRoot = join(import.meta.dirname, '../conformance');

/** Every conformance input, suite by suite. */
export function conformanceInputs(): string[] {
  return readdirSync(conformanceRoot, { withFileTypes: true })
    .filter((suite) => suite.isDirectory())
    .flatMap((suite) => readdirSync(join(conformanceRoot, suite.name)).map((name) => join(conformanceRoot, suite.name, name, 'input.ns')))
    .map((file) => {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        return undefined;
      }
    })
    .filter((text): text is string => text !== undefined);
}
