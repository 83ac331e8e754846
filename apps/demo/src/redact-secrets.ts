/**
 * A second line of defence for what the CLI prints and the viewer serves.
 * Records carry no known key (providers redact them, and the controller
 * replaces the models' keys and the environment's, `environmentSecretsOf`,
 * in what tools give back), but a model can echo text that looks like a key,
 * and a plugin's hook error or a session recorded before can contain one. Every string the viewer's API
 * returns, `askloop show` prints and an error message says passes through
 * here: the values of the environment's key-like variables and of those the
 * files the command read hand to an MCP server (`${NAME}` in its `env` or
 * `headers`) or name in a plugin's options (`tokenEnv:`), the passwords
 * of its URLs, well-known key shapes and the passwords written in
 * URLs become `[redacted]`.
 */

import { createRedactor, REDACTED as PROVIDER_REDACTED } from '@askloop/providers';
import { CliError } from './cli-error.ts';

/** What replaces a secret in the CLI's output and the viewer's. */
export const REDACTED = '[redacted]';

/**
 * The variables known to hold secrets whatever their names (`knownSecretNames`): a list, or a function read at each
 * use, for a redactor made before the command has read every file that names some (`followKnownSecretNames`).
 */
export type SecretNames = readonly string[] | (() => readonly string[]);

/** `build(names)` for the names `secretNames` gives at each call, built again only when they changed. */
function followNames<T>(secretNames: SecretNames, build: (names: readonly string[]) => T): () => T {
  if (typeof secretNames !== 'function') {
    const built = build(secretNames);
    return () => built;
  }
  let key: string | undefined;
  let built: T | undefined;
  return () => {
    const names = secretNames();
    // Names are identifiers: a line break never occurs in one.
    const now = names.join('\n');
    if (built === undefined || now !== key) {
      key = now;
      built = build(names);
    }
    return built;
  };
}

/**
 * Environment variable names whose values are treated as secrets: the word whole (`ACME_API_KEY`, `APIKEY`,
 * PostgreSQL's `PGPASSWORD`), not inside another (`MONKEY`).
 */
const SECRET_NAME = /(?:^|_|API|PG)(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS?)(?:_|$)/i;

/** Whether the variable `name` is named like a key (`SECRET_NAME`), so a secret whatever the files the command read say. */
export function namedLikeKey(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * Shapes of provider keys and tokens (OpenAI/Anthropic `sk-…`, Google `AIza…`, Groq `gsk_…`, xAI `xai-…`, GitHub
 * `ghp_…`/`github_pat_…`, Slack `xox…-`, AWS access key ids `AKIA…`, JSON Web Tokens `eyJ….eyJ….…`) and bearer
 * tokens: the shapes the config file refuses as written secrets.
 */
const KEY_SHAPES = /\b(?:sk-[A-Za-z0-9_-]{16,}|AIza[0-9A-Za-z_-]{30,}|gsk_[A-Za-z0-9]{20,}|xai-[A-Za-z0-9]{20,}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|xox[abpr]-[A-Za-z0-9-]{10,}|(?:AKIA|ASIA)[0-9A-Z]{16}|eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})|\bBearer\s+[A-Za-z0-9._~+/=-]{16,}/g;

/** A value that is a file path, absolute or relative, Unix or Windows, with no white space. */
const PATH_LIKE = /^(?:\/|~\/|\.{1,2}\/|[A-Za-z]:[\\/])\S*$/;

/** The password in a URL's userinfo (`postgres://user:PASSWORD@host`): what precedes it is kept; one masked already (`***`) too. */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@"'<>]*:)(?!\*+@)[^\s@/"'<>]+(?=@)/gi;

/**
 * A password in a URL's query (`?password=…`, `&sslpassword=…`), unless masked already: `***` and then the URL's end
 * (a `:` after it ends the URL in a message when a space or the text's end follows; `**:hunter2` is a password).
 */
const QUERY_PASSWORD = /([?&](?:password|sslpassword|passwd|pwd)=)(?!\*+(?:[&\s"'<>#]|:(?:\s|$)|$))[^&\s"'<>#]+/gi;

/** The password of an environment value that is a URL with one (`DATABASE_URL=postgres://u:pw@h/db`), decoded. */
function urlPassword(value: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return undefined;
  try {
    const password = decodeURIComponent(new URL(value).password);
    return password === '' ? undefined : password;
  } catch {
    return undefined;
  }
}

/**
 * The environment's secrets for `createAskLoop({ secrets })`: the controller
 * then keeps them out of what tools give back, so out of the model's
 * envelopes and the sessions file, not only out of what the CLI prints. Read
 * once: the controller asks every turn, and the CLI's environment does not
 * change while it runs (a provider's own key is read at each call anyway,
 * through `LanguageModel.secrets()`); the same list each time also keeps the
 * controller's redactor.
 */
export function environmentSecretsOf(env: Readonly<Record<string, string | undefined>>, secretNames: SecretNames = []): () => readonly string[] {
  // The same list while the names are the same, so the controller keeps its redactor.
  return followNames(secretNames, (names) => secretValues(env, names));
}

/**
 * For the tool hosts the CLI makes itself (`ns run`, `mcp serve`'s
 * `run_neuroscript`): the environment's secrets replaced in what tools give
 * back (`createToolHost({ redact, redactionMarker })`), so a program never
 * sees one. Exact values only: a tool's data is not masked for looking like a
 * key. Undefined when the environment holds none.
 */
export function environmentRedaction(env: Readonly<Record<string, string | undefined>>, secretNames: readonly string[] = []): { readonly redact: (text: string) => string; readonly redactionMarker: string } | undefined {
  const values = secretValues(env, secretNames);
  // The tool host refuses a write that would store the mark back where a read showed it (TOOL_ARGUMENT_REDACTED).
  return values.length === 0 ? undefined : { redact: createRedactor(values).secretsOnly, redactionMarker: PROVIDER_REDACTED };
}

/** Escapes a literal for a regular expression. */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether the variable `name` holds a secret: named like a key, or named in `secretNames` (what the files the command
 * read hand to an MCP server or a plugin, `knownSecretNames`). A path is no key (`SSL_KEY_FILE=/etc/ssl/key.pem`,
 * `GOOGLE_APPLICATION_CREDENTIALS=~/creds.json`): hidden, it would turn every file listing and path in a tool's result
 * into the mark.
 */
function holdsSecret(name: string, value: string, secretNames: readonly string[]): boolean {
  return (namedLikeKey(name) || secretNames.includes(name)) && !PATH_LIKE.test(value);
}

/**
 * The values of the environment's key-like variables (8 characters or more), longest first; `secretNames` are
 * variables known to hold a key whatever their name (`holdsSecret`).
 */
function secretValues(env: Readonly<Record<string, string | undefined>>, secretNames: readonly string[] = []): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (holdsSecret(name, value, secretNames)) values.push(value);
    // A password inside any variable's URL (a DATABASE_URL): the URL shape hides it in a whole URL, this when it is quoted alone.
    const password = urlPassword(value);
    if (password !== undefined) values.push(password);
  }
  return values.filter((value) => value.length >= 8).sort((a, b) => b.length - a.length);
}

/**
 * The name of the environment's key-like variable (or one of `secretNames`) whose value `text` holds
 * (8 characters or more, as the redactor takes them), or undefined: for a
 * task, which the model is sent and the sessions file keeps.
 */
export function environmentSecretIn(text: string, env: Readonly<Record<string, string | undefined>>, secretNames: readonly string[] = []): string | undefined {
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < 8 || !holdsSecret(name, value, secretNames)) continue;
    if (text.includes(value)) return name;
  }
  return undefined;
}

/**
 * The name of the environment variable whose URL's password (`DATABASE_URL=postgres://u:PASSWORD@h/db`, decoded,
 * 8 characters or more, as the redactor takes it) `text` holds, or undefined.
 */
export function environmentUrlPasswordIn(text: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  for (const [name, value] of Object.entries(env)) {
    const password = value === undefined ? undefined : urlPassword(value);
    if (password !== undefined && password.length >= 8 && text.includes(password)) return name;
  }
  return undefined;
}

/**
 * Refuses (`CLI_OPTION_INVALID`) what a person wrote for the model (`what`: `the task`, `--note`) when it holds the
 * value of a key-like variable of the environment (or of one of `secretNames`): the model would be sent it and the
 * sessions file would keep it (the redaction of what is printed comes after both). Names the variable, never the
 * value; `fix` says what to do.
 */
export function refuseHeldKey(text: string, env: Readonly<Record<string, string | undefined>>, what: string, fix: string, secretNames: readonly string[] = []): void {
  const heldKey = environmentSecretIn(text, env, secretNames);
  if (heldKey !== undefined) throw new CliError('CLI_OPTION_INVALID', `${what} holds the value of ${heldKey}: the model would be sent it and the sessions file would keep it; ${fix}`);
}

/** A key shape that may still be growing at the end of a streamed text (`sk-proj-ab`). */
const GROWING_KEY_SHAPE = /\b(?:sk-|AIza|gsk_|xai-|gh[pousr]_|github_pat_|xox[abpr]-|eyJ[A-Za-z0-9_-]*\.eyJ|Bearer\s+)[A-Za-z0-9._~+/=-]*$|(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@"'<>]*:)[^\s@/"'<>]*$/i;

/** What stands for the held-back end of a streamed text. */
const HELD_BACK = '…';

/**
 * The redactor of a text that is still arriving (a model's reply streamed
 * to the live progress): a key is only recognised once it is whole, so the
 * end of the text is also held back while it could be the first part of one
 * — the first 4 or more characters of a key-like variable's value, or the
 * start of a key shape — and shown as `…` until more arrives.
 */
export function createStreamRedactor(env: Readonly<Record<string, string | undefined>>, secretNames: SecretNames = []): (text: string) => string {
  // One follower for the redactor and the values it holds back the starts of: the names are read once a piece.
  const now = followNames(secretNames, (names) => ({ redact: fixedSecretRedactor(env, names), values: secretValues(env, names) }));
  return (text) => {
    const { redact, values } = now();
    const whole = redact(text) as string;
    for (const value of values) {
      for (let length = Math.min(value.length - 1, whole.length); length >= 4; length -= 1) {
        if (whole.endsWith(value.slice(0, length))) return `${whole.slice(0, -length)}${HELD_BACK}`;
      }
    }
    // A URL's user name is shown; what may be its password, until its `@` arrives, is not.
    return whole.replace(GROWING_KEY_SHAPE, (_match, userinfo: string | undefined) => `${userinfo ?? ''}${HELD_BACK}`);
  };
}

/**
 * Builds the redactor from an environment: each value (8 characters or
 * more, so `1` or `true` is never hidden everywhere) of a variable named like
 * a key, or named in `secretNames` (variables known to hold one: what the
 * files the command read fill into an MCP server's `env` or `headers` as
 * `${NAME}` or name by a plugin entry's `tokenEnv: TRACKER_AUTH`,
 * `knownSecretNames`), is removed wherever it appears,
 * then the key shapes.
 */
export function createSecretRedactor(env: Readonly<Record<string, string | undefined>>, secretNames: SecretNames = []): (value: unknown) => unknown {
  // Given as a function, the names are read at each call (not at each string of it): a name learnt later counts from then on.
  const redactorNow = followNames(secretNames, (names) => fixedSecretRedactor(env, names));
  return (value) => redactorNow()(value);
}

/** {@link createSecretRedactor} for a fixed list of names. */
function fixedSecretRedactor(env: Readonly<Record<string, string | undefined>>, secretNames: readonly string[]): (value: unknown) => unknown {
  const values = secretValues(env, secretNames);
  const exact = values.length === 0 ? undefined : new RegExp(values.map(escapeRegExp).join('|'), 'g');
  const redactString = (text: string): string =>
    (exact === undefined ? text : text.replace(exact, REDACTED)).replace(KEY_SHAPES, REDACTED).replace(URL_PASSWORD, `$1${REDACTED}`).replace(QUERY_PASSWORD, `$1${REDACTED}`);
  // Strings are redacted structurally (before JSON encoding), so a match can never split an escape sequence.
  const redact = (value: unknown): unknown => {
    if (typeof value === 'string') return redactString(value);
    if (Array.isArray(value)) return value.map(redact);
    if (value !== null && typeof value === 'object') {
      const copy: Record<string, unknown> = {};
      // Keys too: a tool's map keyed by a secret (`{"<key>": 1}`) was served as it was.
      for (const [key, inner] of Object.entries(value)) Object.defineProperty(copy, redactString(key), { value: redact(inner), enumerable: true, writable: true, configurable: true });
      return copy;
    }
    return value;
  };
  return redact;
}
