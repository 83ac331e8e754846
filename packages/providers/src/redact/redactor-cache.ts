import { createRedactor, type Redactor } from './create-redactor.ts';

/**
 * Returns the redactor for a list of secrets, building it only when the list
 * differs from the previous call's. A model asks for its secrets on every call
 * (a key may come from the environment at call time), but they are almost
 * always the same: building a redactor (a set, a sort and five closures) for
 * each request was waste, and a redactor holds no state between uses.
 */
export function redactorCache(): (secrets: readonly (string | undefined | null)[]) => Redactor {
  let kept: { secrets: readonly (string | undefined | null)[]; redactor: Redactor } | undefined;
  return (secrets) => {
    if (kept !== undefined && sameSecrets(kept.secrets, secrets)) return kept.redactor;
    kept = { secrets: [...secrets], redactor: createRedactor(secrets) };
    return kept.redactor;
  };
}

function sameSecrets(a: readonly (string | undefined | null)[], b: readonly (string | undefined | null)[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}
