/**
 * A server's answer that is not what MCP says it must be (a content block
 * without its text, a tool list whose schema's `properties` is a string) is
 * refused by the SDK's schema with a ZodError, whose message is its issues as
 * pretty-printed JSON — dozens of lines for one bad block, since every kind of
 * content block is tried. This names what was wrong and where in one line.
 */

/** The parts of a zod issue read here (zod 4, which the SDK validates with). */
interface Issue {
  readonly path?: readonly PropertyKey[];
  readonly message?: string;
  /** A union's branches, each the issues that branch had. */
  readonly errors?: readonly (readonly Issue[])[];
}

/** A schema failure of the SDK: the answer arrived whole, but it is not an MCP result. */
export interface InvalidAnswer extends Error {
  readonly issues: readonly Issue[];
}

/** How many problems one message names before `and N more`. */
const SHOWN = 3;
/** The longest the description gets, whatever a server sends (its keys are in the paths). */
const MAX_CHARS = 400;

/**
 * True for the SDK's schema failure of an answer, told by shape so no second zod instance is needed: the SDK parses
 * with zod's core (`$ZodError`); `ZodError` is the same failure from zod's full API.
 */
export function isInvalidAnswer(error: unknown): error is InvalidAnswer {
  return error instanceof Error && (error.name === '$ZodError' || error.name === 'ZodError') && Array.isArray((error as { issues?: unknown }).issues);
}

/** `content[0].text`, `tools[3].inputSchema.properties`; `(the answer)` for the top. */
function pathText(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) text += typeof key === 'number' ? `[${key}]` : /^[A-Za-z_$][\w$]*$/.test(String(key)) ? `${text === '' ? '' : '.'}${String(key)}` : `[${JSON.stringify(String(key))}]`;
  return text === '' ? '(the answer)' : text;
}

/**
 * The leaf problems of `issues` under `prefix`. A union's problems are those of its closest branch (the fewest
 * problems): a text block without its text is "text: expected string", not also "not an image, not audio, …".
 */
function leaves(issues: readonly Issue[], prefix: readonly PropertyKey[]): { path: readonly PropertyKey[]; message: string }[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...(issue.path ?? [])];
    const branches = (issue.errors ?? []).filter((branch) => branch.length > 0);
    if (branches.length > 0) {
      const closest = branches.reduce((best, branch) => (branch.length < best.length ? branch : best));
      return leaves(closest, path);
    }
    return [{ path, message: (issue.message ?? 'invalid').replace(/^Invalid input: /, '') }];
  });
}

/** `content[0].text: expected string, received undefined; content[1].text: expected string, received number`. */
export function describeInvalidAnswer(error: InvalidAnswer): string {
  const found = leaves(error.issues, []);
  const shown = found.slice(0, SHOWN).map(({ path, message }) => `${pathText(path)}: ${message}`);
  const text = `${shown.join('; ')}${found.length > SHOWN ? `; and ${found.length - SHOWN} more` : ''}`;
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
}
