/**
 * The README's generated sections: the table of every built-in tool and the
 * table of every error code. `node test/update-readme.ts` rewrites them;
 * `readme.test.ts` fails when the README is out of date.
 */
import { TOOL_ERROR_CODES } from '../src/errors/error-codes.ts';
import { createDefaultRegistry } from '../src/packs/default-registry.ts';
import { signatureText } from '../src/spec/bind-arguments.ts';

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** Markdown table of every built-in tool (fs and http included). */
export function toolTable(): string {
  const registry = createDefaultRegistry({ fs: { root: '/' }, http: {} });
  const rows = registry.specs().map((spec) => {
    const pack = registry.lookup(spec.name)?.pack ?? '';
    const needs = spec.capabilities.length === 0 ? '—' : spec.capabilities.map((capability) => `\`${capability}:<scope>\``).join(', ');
    return `| \`${spec.displayName}\` | \`${cell(signatureText(spec))}\` | ${spec.returns} | ${spec.effect}${spec.idempotent ? '' : ', not idempotent'} | ${needs} | ${pack} | ${cell(spec.description)} |`;
  });
  return ['| Tool | Arguments | Returns | Effect | Needs | Pack | Description |', '|---|---|---|---|---|---|---|', ...rows].join('\n');
}

/** Markdown table of every error code with its reference code and fix. */
export function errorTable(): string {
  const rows = Object.entries(TOOL_ERROR_CODES).map(([code, info]) => `| \`${code}\` | ${info.referenceCode} | ${cell(info.fix)} |`);
  return ['| Code | Go code | Fix |', '|---|---|---|', ...rows].join('\n');
}

/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->`. */
export function replaceSection(readme: string, name: string, body: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from < 0 || to < from) throw new Error(`README has no ${name} section`);
  return `${readme.slice(0, from + start.length)}\n${body}\n${readme.slice(to)}`;
}
