/**
 * What keeps a key out of a turn's tool results and errors: a tool may quote
 * one (a plugin's `throw new Error('bad key ' + process.env.ACME_API_KEY)`),
 * and the program would hand it to its OUTPUT, so to the next envelope sent to
 * the model and to every record of the turn. The tool host replaces the known
 * secrets before the program sees anything (`createToolHost({ redact })`):
 * the keys the turn's model sends (`LanguageModel.secrets`) and the loop's
 * own (`createAskLoop({ secrets })`). The same secrets are hidden in what the
 * controller keeps (`createRecordRedaction`, `hide-secrets.ts`): a reply or a
 * program that writes one down is stored with `[REDACTED]` in its place.
 */
import { secretFingerprints, type SecretFingerprint } from '@askloop/interpreter';
import { describeThrown, REDACTED, redactorCache, secretForms, type LanguageModel, type Redactor } from '@askloop/providers';
import { LoopError } from '../errors/loop-error.ts';

/** `createAskLoop({ secrets })`: values read at each turn, so a rotated key is known at once. */
export type SecretsSource = () => readonly (string | undefined | null)[];

/** A turn's tool host options that hide its secrets (`createToolHost({ redact, redactionMarker })`). */
export interface ToolHostRedaction {
  readonly redact: (text: string) => string;
  /** What stands for a hidden secret: a write that would store it back is refused. */
  readonly redactionMarker: string;
}

/** A turn's redaction: its tool host's options, and the fingerprints the sandbox worker looks for the same secrets by. */
export interface TurnRedaction extends ToolHostRedaction {
  /**
   * The secrets `redact` replaces, as fingerprints (`secretFingerprints`): a
   * pure tool's result the sandbox worker would answer itself and that holds
   * one goes to the tool host instead, which hides it. The worker never gets
   * the secrets.
   */
  readonly fingerprints: readonly SecretFingerprint[];
}

/** What a turn's tool host replaces, or undefined when no secret is known (nothing to scan for). */
export type ToolOutputRedaction = (model: LanguageModel) => TurnRedaction | undefined;

/** The redaction of a loop with these `secrets`; one redactor is kept while a turn's secrets are the previous turn's. */
export function createToolOutputRedaction(loopSecrets: SecretsSource | undefined): ToolOutputRedaction {
  const redactorFor = redactorCache();
  /**
   * The last turn's redactor and the fingerprints of its secrets: a session's secrets rarely change between turns.
   * Keyed by the redactor, which `redactorFor` keeps exactly while the list is the same (a key made by joining the
   * texts took ['a\u0000b'] and ['a', 'b'] for one list, and kept the fingerprints of the first).
   */
  let fingerprinted: { readonly redactor: Redactor; readonly prints: readonly SecretFingerprint[] } | undefined;
  return (model) => {
    const secrets = knownSecrets(model, loopSecrets);
    if (secrets.length === 0) return undefined;
    const redactor = redactorFor(secrets);
    if (fingerprinted?.redactor !== redactor) fingerprinted = { redactor, prints: secretFingerprints(secretForms(secrets)) };
    return { redact: redactor.secretsOnly, redactionMarker: REDACTED, fingerprints: fingerprinted.prints };
  };
}

/** What hides the known secrets in text the controller keeps, or undefined when none is known (nothing to scan for). */
export type Redact = (text: string) => string;

/**
 * The redaction of what the controller stores (records, session rows): the loop's `secrets` and, when given, the keys
 * of the session's model, replaced by `[REDACTED]` (`Redactor.secretsOnly`, as in tool results). A cache of its own,
 * so that stores of sessions on other models do not rebuild the turns' redactor and its fingerprints.
 */
export function createRecordRedaction(loopSecrets: SecretsSource | undefined): (model: LanguageModel | undefined) => Redact | undefined {
  const redactorFor = redactorCache();
  return (model) => {
    const secrets = knownSecrets(model, loopSecrets);
    return secrets.length === 0 ? undefined : redactorFor(secrets).secretsOnly;
  };
}

/** The secrets known for a turn of `model` (none of its own when absent), read now: a rotated key is known at once. */
function knownSecrets(model: LanguageModel | undefined, loopSecrets: SecretsSource | undefined): string[] {
  const modelSecrets = model === undefined ? [] : readModelSecrets(model);
  return [...modelSecrets, ...readLoopSecrets(loopSecrets)].filter((secret): secret is string => typeof secret === 'string' && secret !== '');
}

function readLoopSecrets(loopSecrets: SecretsSource | undefined): readonly (string | undefined | null)[] {
  return loopSecrets === undefined ? [] : readSecretList(loopSecrets, "createAskLoop's secrets()");
}

/**
 * The keys the turn's model says it sends. A model made by `createLanguageModel` never throws here, but a plugin's
 * own `LanguageModel` may (a vault out of reach), or return one key instead of a list, whose characters, each under
 * the shortest secret scrubbed, would hide nothing.
 */
function readModelSecrets(model: LanguageModel): readonly (string | undefined | null)[] {
  if (model.secrets === undefined) return [];
  const secrets = model.secrets;
  return readSecretList(() => secrets.call(model), `the model's secrets() (${model.provider}:${model.modelId})`);
}

/** Calls `source`; a throw or anything but a list fails the turn closed: without its secrets a turn could hand a key to the model. */
function readSecretList(source: () => unknown, name: string): readonly (string | undefined | null)[] {
  let secrets: unknown;
  try {
    secrets = source();
  } catch (error) {
    // Neither its message nor the error itself (as `cause`) goes on: what failed to read the keys often quotes one
    // (`JSON.parse` on a malformed KEYS variable prints its first characters), and no key is known to hide it with.
    throw new LoopError({
      code: 'LOOP_CONFIG_INVALID',
      message: `${name} threw ${describeThrown(error)}, so nothing more of the session was run or stored (without its secrets, a key could reach a record or the model); its message is not shown, since it may quote a key: call secrets() yourself to read it`,
    });
  }
  // Described by its kind only: what a wrong secrets() returns is often the key itself (`() => key` for `() => [key]`).
  if (!Array.isArray(secrets)) throw new LoopError({ code: 'LOOP_CONFIG_INVALID', message: `${name} must return a list of strings (() => [key], not () => key), got ${secrets === null ? 'null' : typeof secrets}` });
  return secrets as readonly (string | undefined | null)[];
}
