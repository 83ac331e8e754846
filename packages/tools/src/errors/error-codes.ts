/**
 * Every error code of `@askloop/tools`, in one sorted list, with the numeric
 * code the Go reference uses for the same failure (reference §1.10) and the
 * fix a reader should apply. The README's error table is this list.
 */

/** One entry of {@link TOOL_ERROR_CODES}. */
export interface ToolErrorCodeInfo {
  /** The reference implementation's numeric code (reference §1.10), e.g. 1003 for policy denials. */
  readonly referenceCode: number;
  /** What to do about it, in one sentence. */
  readonly fix: string;
}

/** Every stable error code this package raises. Sorted; stable across releases. */
export const TOOL_ERROR_CODES = {
  CAPSULE_NOT_FOUND: { referenceCode: 9, fix: 'Call tool.capsule.List() and use one of the ids it returns.' },
  FS_ESCAPE: { referenceCode: 1003, fix: 'A confinement denial (the script sees SCRIPT_TOOL_DENIED). Use a plain path inside the tool root: no `..` segments, no backslashes, and no symbolic link anywhere along it (fs tools never follow links); use the link target\'s own path instead.' },
  FS_EXISTS: { referenceCode: 24, fix: 'The destination already exists; delete it first or choose another path.' },
  FS_FAILED: { referenceCode: 21, fix: 'The fs root is not available (the operator must create the configured directory), or the operating system refused the operation (the errno is in the message, e.g. ENAMETOOLONG, EACCES, EINVAL for moving a directory into itself); shorten or fix the path, or check permissions under the fs root.' },
  FS_NOT_FOUND: { referenceCode: 22, fix: 'Check the path with tool.fs.Stat or tool.fs.List first; paths are relative to the fs root.' },
  FS_PATH_TYPE: { referenceCode: 23, fix: 'The path is a directory where a file was expected (or the reverse); pick the right path.' },
  FS_TOO_LARGE: { referenceCode: 37, fix: 'Read or write less data, or raise maxReadBytes/maxWriteBytes in createFileSystemTools().' },
  HTTP_ADDRESS_DENIED: { referenceCode: 1003, fix: "The host is or resolves to a loopback, private, link-local or other special-use address (127.0.0.1, 10.x, 192.168.x, 169.254.169.254, ::1, fc00::/7, …), which a net grant pattern (*, **, *.example.com) never reaches, through a name, a literal address or a redirect: only a grant naming the host does (net:read:localhost:8080, net:read:10.0.0.5). Ask the operator to add one, or, for an http pack meant for a private network, to create it with createHttpTools({ specialAddresses: 'granted' })." },
  HTTP_FAILED: { referenceCode: 1002, fix: 'The request did not complete (connection refused, DNS, TLS); check the URL and that the server is up.' },
  HTTP_HOST_DENIED: { referenceCode: 1003, fix: 'Add the host to the policy\'s grants, e.g. net:read:api.example.com (or net:read:*.example.com): createPolicy({ grants }), an agent\'s policy.grants, or askloop\'s --grant.' },
  HTTP_TOO_LARGE: { referenceCode: 37, fix: 'The response body exceeded maxBytes; fetch something smaller or raise maxBytes in createHttpTools().' },
  HTTP_TOO_MANY_REDIRECTS: { referenceCode: 1002, fix: 'The server redirected more than maxRedirects times (a loop, or a long chain); fetch the final URL directly or raise maxRedirects in createHttpTools().' },
  HTTP_URL_INVALID: { referenceCode: 41, fix: 'Pass an absolute http:// or https:// URL without credentials; when a redirect names a bad one, the server is at fault: fetch another URL.' },
  MATH_DIVISION_BY_ZERO: { referenceCode: 14, fix: 'Check the divisor before calling tool.math.Divide or tool.math.Modulo.' },
  POLICY_APPROVAL_UNAVAILABLE: { referenceCode: 1003, fix: "A tool marked requiresApproval was called where no one can approve it (a program an MCP client sends to askloop mcp serve); run it in an agent turn, which pauses for approve or deny." },
  POLICY_CALL_LIMIT: { referenceCode: 1003, fix: 'The per-turn or per-session call limit is used up; do fewer calls, or raise limits in createPolicy().' },
  POLICY_CAPABILITY_MISSING: { referenceCode: 1003, fix: 'Add the named capability to the policy\'s grants, e.g. fs:write:/data/** (createPolicy({ grants }), an agent\'s policy.grants, or askloop\'s --grant).' },
  POLICY_DENIED: { referenceCode: 1003, fix: 'A deny pattern matches this tool; remove it from the deny list if the tool should run.' },
  POLICY_GRANT_INVALID: { referenceCode: 18, fix: 'Write grants as resource:verbs[:scopes], e.g. fs:read,write:/data/** or net:read:*.example.com.' },
  POLICY_NOT_ALLOWED: { referenceCode: 1003, fix: 'Add an allow pattern that matches the tool to the policy, e.g. tool.str.* (createPolicy({ allow }), an agent\'s policy.allow, or askloop\'s --allow); deny by default.' },
  POLICY_PATTERN_INVALID: { referenceCode: 18, fix: 'Pass createPolicy() an options object { allow, deny, grants, trusted, limits }. Allow/deny patterns are dotted names with * (one segment) and ** (any segments), e.g. tool.str.*; limits.tools keys are exact tool names without *, e.g. tool.http.Fetch; limits are perTurn and perSession, whole numbers >= 0.' },
  POLICY_TRUST_REQUIRED: { referenceCode: 1003, fix: 'The tool needs a trusted (config) context; create the policy with trusted: true only for trusted code.' },
  STORE_ARGUMENT_INVALID: { referenceCode: 4, fix: 'openSqliteStore() takes a file name or an open DatabaseSync (openDatabase(file)) and the options clock (an object with now()) and busyTimeoutMs (a whole number >= 0). A store method called from code (memory.get/cas, scratch.get/putCas, idempotence.lookup/claim/record/release/forgetBefore) got a bad argument, which the message names: pass keys, sessions and tool names as non-empty, well-formed strings without the NUL character (U+0000, which PostgreSQL cannot store) or a lone surrogate (half of a UTF-16 pair, which every store keeps as U+FFFD; a value may hold either in its strings); versions, turns and call indexes as whole numbers >= 0; ttlMs as a whole number >= 1; olderThanMs as a number (not NaN); argumentsJson as canonicalJson(args) text; values and results as plain JSON data (null, booleans, finite numbers, strings, lists, plain maps; no undefined, functions, BigInt, class instances or cycles), at most 100 levels deep.' },
  STORE_FAILED: { referenceCode: 26, fix: 'The database operation failed: check the file path, permissions and disk space; "database is locked" means another connection held the write lock longer than busyTimeoutMs (an option of openSqliteStore, default 5000 ms): retry, or give it more. Also when applyMigrations is given a malformed list (an empty owner, versions not counting up from 1), a list that is none or a database that is not an open DatabaseSync: fix the call.' },
  STORE_SCHEMA_NEWER: { referenceCode: 18, fix: 'The database was written by a newer @askloop/tools; upgrade the package or use another file.' },
  TOOL_ARGUMENT_INVALID: { referenceCode: 4, fix: 'Pass the argument with the type the tool declares (see the catalogue line of the tool).' },
  TOOL_ARGUMENT_MISSING: { referenceCode: 4, fix: 'Pass every required argument, positionally or in one map of named arguments.' },
  TOOL_ARGUMENT_REDACTED: { referenceCode: 4, fix: 'An argument of this write holds the mark the host put where it hid a secret from an earlier result of this run or from the program itself; writing it would replace the secret with the mark. Write only what you change (append a line, set one key) instead of writing back text you read, and never write a key in a program: a tool that needs one reads it itself.' },
  TOOL_CANCELLED: { referenceCode: 21, fix: 'The run ended (its time ran out, it failed or was aborted) while the tool was still working; the call was abandoned. Do less work per run, or give the run more time (wallMs).' },
  TOOL_DUPLICATE: { referenceCode: 42, fix: 'Two packs (or one pack twice) define the same tool or pack name; rename or drop one.' },
  TOOL_FAILED: { referenceCode: 21, fix: 'The tool itself failed; read the wrapped cause, which names the tool and its pack.' },
  TOOL_NOT_FOUND: { referenceCode: 3, fix: 'Check the name against the tool catalogue; lookup is case-insensitive and names look like tool.group.Name.' },
  TOOL_REPLAY_DIVERGED: { referenceCode: 19, fix: 'A replayed turn made a different call at this position than the recorded one; replay the same program or use a new turn number.' },
  TOOL_REPLAY_IN_PROGRESS: { referenceCode: 19, fix: 'Another host is running the call at this (session, turn, call index) right now; wait for it to finish and replay the turn to get its recorded result. If that host crashed, the outcome is unknown and the call is never re-run automatically: start a new turn number.' },
  TOOL_RESULT_INVALID: { referenceCode: 6, fix: 'A tool must return plain data: strings, finite numbers, booleans, null/undefined, arrays and plain objects of them (see "What a tool may return"). The message names the kind refused (a non-finite number, a BigInt, a function, a symbol, a Date, a Map, a Set, a Buffer or typed array, an object with toJSON, a class instance, a cycle, a value whose getter or Proxy trap threw when read) and where in the result, with how to convert it.' },
  TOOL_RESULT_TOO_LARGE: { referenceCode: 37, fix: 'The result would exceed one of the run\'s value-size limits, which the message names with its value and where in the result it was crossed: maxResultItems (items in one list or map, the interpreter\'s collectionSize) or maxResultLength (characters of all strings and map keys, its stringLength); checked before the result is built where the tool can count, else as the host copies it, stopping at the first limit crossed. Or it nests lists and maps more than 100 levels deep. Call the tool on smaller (flatter) values, or raise the interpreter\'s limits and the host\'s together.' },
  TOOL_SPEC_INVALID: { referenceCode: 18, fix: 'Fix the tool definition passed to defineTool(), the options passed to defineToolPack(), to a pack factory such as createFileSystemTools() (a store option is the store itself, e.g. openSqliteStore(file).memory) or to createToolHost(), or the packs passed to createToolRegistry() (a list, even of one pack), as the message says.' },
  TOOL_STORE_MISSING: { referenceCode: 18, fix: 'Pass stores to createToolHost() (e.g. openSqliteStore(file)) or to the pack factory.' },
  TOOL_TIMEOUT: { referenceCode: 21, fix: 'The tool ran past its timeout; retry with less work, or raise timeoutMs in its spec or the host.' },
  TOOL_VALUE_BOUNDS: { referenceCode: 8, fix: 'Use an index or range inside the list (0 <= start <= end <= length).' },
  TOOL_VALUE_INVALID: { referenceCode: 41, fix: 'The value has the right type but cannot be used (e.g. malformed JSON, base64 or hex).' },
  TOOL_VALUE_TYPE: { referenceCode: 7, fix: 'The values have the wrong types for this operation (e.g. sorting a list that mixes strings and numbers).' },
} as const satisfies Record<string, ToolErrorCodeInfo>;

/** A stable error code of this package. */
export type ToolErrorCode = keyof typeof TOOL_ERROR_CODES;

/** True for a code of the table (a string from plugin code or another copy of the package may be anything). */
export function isToolErrorCode(code: unknown): code is ToolErrorCode {
  return typeof code === 'string' && Object.hasOwn(TOOL_ERROR_CODES, code);
}
