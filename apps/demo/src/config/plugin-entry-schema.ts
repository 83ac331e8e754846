/**
 * One entry of `plugins:` in `askloop.config.yaml`: a package name or a
 * `./path` as text (the plugin is used as exported, a factory called with no
 * arguments), or a map `{ package, options }` whose `options` (plain data)
 * are handed to the plugin's factory: what YAML gives beyond plain data
 * (`!!binary`, `!!timestamp`, …) is refused there, by its path in the options
 * (`plugins[0].options.key.sub`). Chosen by the value's type rather than
 * a union, so an error points into the form that was meant (`plugins[1].pakage`),
 * not at the whole entry.
 */
import { z } from 'zod';
import { notPlainData } from './plain-option-data.ts';

/** The entry as the loader takes it: `options` is present only when the file gives them. */
export interface PluginEntry {
  readonly package: string;
  readonly options?: Record<string, unknown>;
}

/** A package name (or a ./relative path) as written. */
const PLUGIN_NAME = z.string().min(1).refine((value) => !/\s/.test(value), 'a package name (or a ./relative path) without spaces');

const PLUGIN_WITH_OPTIONS = z.strictObject({
  package: PLUGIN_NAME,
  // What a factory is handed; keys in it are refused before this check (findSecret), as anywhere in the file.
  options: z.record(z.string(), z.unknown()).optional(),
});

/** The keys of the map form, for the unknown-key message. */
export const PLUGIN_ENTRY_KEYS: readonly string[] = Object.keys(PLUGIN_WITH_OPTIONS.shape);

/** What the map form looks like, for an entry that names no package. */
const MAP_FORM = 'a plugin entry with options is package: NAME (or ./path) and options: { … }';

/** One `plugins:` entry, as a {@link PluginEntry}. */
export const PLUGIN_ENTRY = z.unknown().transform((value, context): PluginEntry => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const parsed = PLUGIN_NAME.safeParse(value);
    if (parsed.success) return { package: parsed.data };
    for (const issue of parsed.error.issues) context.addIssue({ ...issue } as Parameters<typeof context.addIssue>[0]);
    return z.NEVER;
  }
  const parsed = PLUGIN_WITH_OPTIONS.safeParse(value);
  const options = (value as Record<string, unknown>)['options'];
  const notPlain = options === undefined ? [] : notPlainData(options);
  if (parsed.success && notPlain.length === 0) return parsed.data.options === undefined ? { package: parsed.data.package } : { package: parsed.data.package, options: parsed.data.options };
  // Options that are themselves no plain data (`options: !!omap […]`) are said to be what they are, not "a map expected".
  const optionsNotPlain = notPlain.some((found) => found.path.length === 0);
  // A misspelt key (`pakage:`) is the real mistake behind a missing `package`: it alone is reported, at its line.
  const issues = parsed.success ? [] : parsed.error.issues;
  const misspelt = issues.some((issue) => issue.code === 'unrecognized_keys');
  for (const issue of issues) {
    const packageMissing = issue.code === 'invalid_type' && issue.path[0] === 'package' && (value as Record<string, unknown>)['package'] === undefined;
    if (misspelt && packageMissing) continue;
    if (optionsNotPlain && issue.path.length === 1 && issue.path[0] === 'options') continue;
    if (packageMissing) context.addIssue({ code: 'custom', path: [], message: `no package; ${MAP_FORM}` });
    else context.addIssue({ ...issue } as Parameters<typeof context.addIssue>[0]);
  }
  for (const found of notPlain) context.addIssue({ code: 'custom', path: ['options', ...found.path], message: found.message });
  return z.NEVER;
});
