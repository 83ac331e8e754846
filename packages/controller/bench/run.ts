/** Runs every `*.bench.ts` in this folder, one after another. */
import { readdirSync } from 'node:fs';

for (const file of readdirSync(import.meta.dirname).filter((name) => name.endsWith('.bench.ts')).sort()) {
  console.log(`\n## ${file}\n`);
  await import(`./${file}`);
}
