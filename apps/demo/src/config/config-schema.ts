/**
 * The shape of `askloop.config.yaml`, as a zod schema: unknown keys are
 * refused everywhere (a typo must not silently drop a setting). Agent-shaped
 * parts — each agent, and the `models.settings`, `quotas` and `ceilings`
 * defaults — are only required to be maps here: they are validated by the
 * controller's own agent validator (`agentDefinitionIssues`), so there is one
 * definition of a valid agent.
 */
import { z } from 'zod';
import { looksLikeUrl } from '../loop/refuse-other-url.ts';
import { PLUGIN_ENTRY } from './plugin-entry-schema.ts';
import { HTTP_SCHEMA } from './http-settings-schema.ts';
import { PROVIDERS_SCHEMA } from './provider-settings-schema.ts';

const MAP = z.record(z.string(), z.unknown());
/** Lower-case names, as agent names are. */
export const AGENT_NAME = /^[a-z][a-z0-9_-]*$/;

// A URL under `path:` (`mysql://…`, a mistyped `postgress://…`) would become a SQLite file in a folder named after its scheme.
const STORE_PATH = z.strictObject({
  path: z
    .string()
    .min(1, 'expected a sessions file path, e.g. .askloop/sessions.db, got empty text')
    .refine((value) => !looksLikeUrl(value), 'a file path, not a URL (a PostgreSQL server is store: postgres://USER@HOST:PORT/DB)')
    // The path is resolved, which drops a trailing `/` or `.`: SQLite would then make a file named like the folder meant.
    .refine((value) => value === '' || !/(^|\/)\.{0,2}$/.test(value), 'names a folder (it ends in /, . or ..), not a sessions file; give a file in it, e.g. DIR/sessions.db'),
});
/** What a store setting looks like, for a `store:` that names none (`store: {}`, or `store:` and nothing). */
const STORE_MISSING = 'expected a SQLite sessions file as path: FILE (store: { path: .askloop/sessions.db }) or a PostgreSQL server as a postgres:// URL (store: postgres://USER@HOST:PORT/DB), got';
const STORE_URL = z.string().regex(/^postgres(ql)?:\/\/\S+$/, 'expected a postgres:// URL, or path: FILE under store:');
/**
 * A SQLite sessions file (`{ path }`) or a PostgreSQL server several hosts
 * share (`postgres://…`). Chosen by the value's type rather than a union, so
 * an error points into the branch that was meant (`store.path`), not at `store`.
 */
const STORE = z.unknown().transform((value, context) => {
  if (value === null) {
    context.addIssue({ code: 'custom', path: [], message: `${STORE_MISSING} nothing` });
    return z.NEVER;
  }
  const parsed = typeof value === 'string' ? STORE_URL.safeParse(value) : STORE_PATH.safeParse(value);
  if (parsed.success) return parsed.data;
  // A misspelt key (`paht:`) is the real mistake behind a missing `path`: it alone is reported, at its line.
  const misspelt = parsed.error.issues.some((issue) => issue.code === 'unrecognized_keys');
  for (const issue of parsed.error.issues) {
    const pathMissing = issue.code === 'invalid_type' && issue.path[0] === 'path' && (value as Record<string, unknown>)['path'] === undefined;
    if (misspelt && pathMissing) continue;
    // `store: {}` names no store at all: say what one looks like (zod's "store.path: expected text, got nothing" did not).
    if (pathMissing) context.addIssue({ code: 'custom', path: [], message: `${STORE_MISSING} a map without path` });
    else context.addIssue({ ...issue } as Parameters<typeof context.addIssue>[0]);
  }
  return z.NEVER;
});

/** The top level of the file. */
export const CONFIG_SCHEMA = z.strictObject({
  plugins: z.array(PLUGIN_ENTRY).optional(),
  store: STORE.optional(),
  models: z
    .strictObject({
      default: z.string().regex(/^[^:\s]+:\S+$/, "expected 'provider:model', e.g. 'openai:gpt-4.1-mini'").optional(),
      settings: MAP.optional(),
    })
    .optional(),
  providers: PROVIDERS_SCHEMA.optional(),
  http: HTTP_SCHEMA.optional(),
  quotas: MAP.optional(),
  ceilings: MAP.optional(),
  // Agent names are checked with the agents (zod's message for a bad record key says only 'Invalid key').
  agents: z.record(z.string(), MAP).optional(),
  mcpServers: z.record(z.string(), MAP).optional(),
});

/** The file's content once the schema accepted it. */
export type ConfigFile = z.infer<typeof CONFIG_SCHEMA>;
