/**
 * The policy (reference §2.4, hardened): deny by default, and in this order
 * 1. deny patterns, 2. allow patterns, 3. trusted-context requirement,
 * 4. capabilities (static needs; at run time also the per-call scoped needs
 * from the arguments), 5. call limits per tool and in total, per turn and per
 * session. The same object answers the static check (`check`, no counters)
 * and the run-time check (`authorize`).
 */
import { ToolError } from '../errors/tool-error.ts';
import { canonicalToolName, isValidToolName } from '../spec/canonical-name.ts';
import type { ToolArguments, ToolSpec } from '../spec/tool-spec.ts';
import { countCallIn, type CallCounters } from './call-counter.ts';
import { formatCapability, parseCapability, parseNeed, type Capability } from './capability.ts';
import { findUncoveredNeed } from './capability-match.ts';
import { meantOption } from '../registry/suggest-names.ts';
import { grantHint, grantToAdd } from './grant-hint.ts';
import { scopeNeeds } from './scope-needs.ts';
import { compileToolPattern, type ToolPattern } from './tool-pattern.ts';

/** Call limits for one tool. */
export interface ToolCallLimit {
  readonly perTurn?: number;
  readonly perSession?: number;
}

/** Call limits; absent means unlimited. */
export interface PolicyLimits {
  /** All tool calls in one turn. */
  readonly perTurn?: number;
  /** All tool calls in one session. */
  readonly perSession?: number;
  /**
   * Per tool, keyed by exact tool name (canonicalised; case-insensitive). A key
   * with `*` or that is not a tool name is refused (`POLICY_PATTERN_INVALID`).
   */
  readonly tools?: { readonly [toolName: string]: ToolCallLimit };
}

/** Options of {@link createPolicy}. */
export interface PolicyOptions {
  /** Tool-name patterns that may run, e.g. `tool.str.*`. Empty (the default) denies everything. */
  readonly allow?: readonly string[];
  /** Tool-name patterns that never run; checked first. */
  readonly deny?: readonly string[];
  /** Capability grants, as strings (`fs:read:/data/**`) or parsed. */
  readonly grants?: readonly (string | Capability)[];
  /** True for a trusted (config) context; tools marked `trusted` run only then. */
  readonly trusted?: boolean;
  readonly limits?: PolicyLimits;
}

/** The outcome of a policy check. */
export type PolicyDecision = { readonly ok: true } | { readonly ok: false; readonly error: ToolError };

/** A policy. Immutable; counters live outside it. */
export interface Policy {
  readonly allow: readonly string[];
  readonly deny: readonly string[];
  readonly grants: readonly Capability[];
  readonly trusted: boolean;
  readonly limits: PolicyLimits;
  /** Static check: deny, allow, trust, static capabilities. No counters, no arguments. */
  check(spec: ToolSpec): PolicyDecision;
  /**
   * Run-time check: everything `check` does, then the per-call scoped needs
   * from `args` (e.g. the fs path or the http host), then call limits. When
   * `counters` are given and the call is allowed, they are incremented.
   */
  authorize(spec: ToolSpec, args: ToolArguments, counters?: CallCounters): PolicyDecision;
  /**
   * The call limits alone: refuses with `POLICY_CALL_LIMIT` when a limit is
   * used up, else increments `counters`. The host calls it only for calls that
   * really run (a replayed call returns its recorded result without counting).
   */
  countCall(spec: ToolSpec, counters: CallCounters): PolicyDecision;
  /** True when the grants cover `capability` (string or parsed). */
  satisfies(capability: string | Capability): boolean;
  /** The denial for a capability the grants do not cover, or undefined when covered. */
  checkCapability(spec: ToolSpec, capability: string | Capability): ToolError | undefined;
}

const deny = (error: ToolError): PolicyDecision => ({ ok: false, error });
const ALLOWED: PolicyDecision = Object.freeze({ ok: true });

function missingCapabilityError(spec: ToolSpec, missing: Capability): ToolError {
  const text = formatCapability(missing);
  const hostDenied = missing.resource === 'net' && missing.scopes.length > 0;
  const grant = grantToAdd(missing);
  return new ToolError(
    hostDenied ? 'HTTP_HOST_DENIED' : 'POLICY_CAPABILITY_MISSING',
    `${spec.displayName} needs capability ${text} — ${grantHint(missing)}`,
    { tool: spec.displayName, capability: text, ...(grant === undefined ? {} : { grant }) },
  );
}

/**
 * The canonical name a per-tool limit is kept under. Limits are looked up by
 * exact name, so a glob (`tool.str.*`) or a malformed name would silently limit
 * nothing: both are refused with `POLICY_PATTERN_INVALID`.
 */
function toolLimitKey(name: string): string {
  const canonical = canonicalToolName(name);
  if (canonical.includes('*')) {
    throw new ToolError('POLICY_PATTERN_INVALID', `limits.tools key '${name}' is a pattern, but per-tool limits take exact tool names (e.g. tool.http.Fetch); list each tool to limit, or use limits.perTurn/perSession for all calls`);
  }
  if (!isValidToolName(canonical)) {
    throw new ToolError('POLICY_PATTERN_INVALID', `limits.tools key '${name}' is not a tool name; per-tool limits take exact tool names like tool.http.Fetch (dotted segments of letters, digits and _)`);
  }
  return canonical;
}

const LIMIT_FIELDS = ['perTurn', 'perSession'] as const;
const POLICY_FIELDS = ['allow', 'deny', 'grants', 'trusted', 'limits'] as const;

/**
 * Checks the options' fields: a misspelt one (`denny`, `grant`) would be ignored, and a misspelt `deny` or `limits`
 * fails open. `POLICY_PATTERN_INVALID` (`POLICY_GRANT_INVALID` for `grants`), before anything is compiled.
 */
function checkPolicyFields(options: PolicyOptions): void {
  // A list given alone (the allow patterns) read as options '0', '1', …; null failed on a JavaScript error; a number or text was taken as no options.
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    const got = Array.isArray(options) ? 'a list; to allow these patterns write createPolicy({ allow: [...] })' : options === null ? 'null' : `${typeof options} ${JSON.stringify(options) ?? ''}`.trimEnd();
    throw new ToolError('POLICY_PATTERN_INVALID', `createPolicy() takes an options object { ${POLICY_FIELDS.join(', ')} }, got ${got}`);
  }
  for (const field of Object.keys(options)) {
    if ((POLICY_FIELDS as readonly string[]).includes(field)) continue;
    const meant = meantOption(field, POLICY_FIELDS);
    throw new ToolError('POLICY_PATTERN_INVALID', `createPolicy() has the unknown option '${field}'${meant === undefined ? '' : `; did you mean '${meant}'?`} (the options are ${POLICY_FIELDS.join(', ')})`);
  }
  for (const field of ['allow', 'deny', 'grants'] as const) {
    const value = options[field];
    if (value !== undefined && !Array.isArray(value)) {
      throw new ToolError(field === 'grants' ? 'POLICY_GRANT_INVALID' : 'POLICY_PATTERN_INVALID', `createPolicy() option '${field}' must be a list, e.g. ${field === 'grants' ? "['fs:read:/data/**']" : "['tool.str.*']"}; got ${JSON.stringify(value) ?? String(value)}`);
    }
  }
}

/**
 * Checks one limits object (`limits`, or a `limits.tools` entry): a misspelt field (`perturn`) or a value that is not
 * a whole number >= 0 (`'10'`, `-1`, `NaN`) would otherwise limit nothing, or everything. `POLICY_PATTERN_INVALID`.
 */
function checkLimitFields(where: string, limit: unknown, extra: readonly string[] = []): void {
  if (limit === undefined) return;
  if (typeof limit !== 'object' || limit === null || Array.isArray(limit)) {
    throw new ToolError('POLICY_PATTERN_INVALID', `${where} must be an object such as { perTurn: 10, perSession: 100 }, got ${JSON.stringify(limit) ?? String(limit)}`);
  }
  const known: readonly string[] = [...LIMIT_FIELDS, ...extra];
  for (const [field, value] of Object.entries(limit)) {
    if (!known.includes(field)) {
      const meant = known.find((name) => name.toLowerCase() === field.toLowerCase());
      throw new ToolError('POLICY_PATTERN_INVALID', `${where} has the unknown field '${field}'${meant === undefined ? '' : `; did you mean '${meant}'?`} (the fields are ${known.join(', ')})`);
    }
    if (extra.includes(field) || value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      throw new ToolError('POLICY_PATTERN_INVALID', `${where}.${field} must be a whole number >= 0, got ${typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value))}`);
    }
  }
}

/**
 * When an allow pattern ending in one `*` would match the tool with `**` (`tool.*` for `tool.str.Length`): a note
 * that `*` stays within one name segment, the pattern meant, else ''. Only on a denial, never on an allowed call.
 */
function oneSegmentHint(allowPatterns: readonly ToolPattern[], name: string): string {
  for (const { pattern } of allowPatterns) {
    if (!pattern.endsWith('*') || pattern.endsWith('**')) continue;
    let widened: ToolPattern;
    try {
      widened = compileToolPattern(`${pattern}*`);
    } catch {
      continue;
    }
    if (widened.matches(name)) return ` ('${pattern}' matches one name segment after its dot; '${pattern}*' matches every tool under it)`;
  }
  return '';
}

/** Builds a policy. Throws `POLICY_PATTERN_INVALID` (patterns, limits) or `POLICY_GRANT_INVALID` for malformed input. */
export function createPolicy(options: PolicyOptions = {}): Policy {
  checkPolicyFields(options);
  const allowPatterns: ToolPattern[] = (options.allow ?? []).map(compileToolPattern);
  const denyPatterns: ToolPattern[] = (options.deny ?? []).map(compileToolPattern);
  const grants = Object.freeze((options.grants ?? []).map((grant) => (typeof grant === 'string' ? parseCapability(grant) : grant)));
  const trusted = options.trusted === true;
  checkLimitFields('limits', options.limits, ['tools']);
  const toolLimits = new Map<string, ToolCallLimit>();
  for (const [name, limit] of Object.entries(options.limits?.tools ?? {})) {
    const key = toolLimitKey(name);
    checkLimitFields(`limits.tools['${name}']`, limit);
    toolLimits.set(key, limit);
  }
  const limits: PolicyLimits = Object.freeze({ ...options.limits, tools: Object.fromEntries(toolLimits) });

  const checkCapability = (spec: ToolSpec, capability: string | Capability): ToolError | undefined => {
    const need = typeof capability === 'string' ? parseNeed(capability) : capability;
    const missing = findUncoveredNeed(need, grants);
    return missing === undefined ? undefined : missingCapabilityError(spec, missing);
  };

  /** Steps 1–3: deny, allow, trust. */
  const gate = (spec: ToolSpec): PolicyDecision => {
    const denied = denyPatterns.find((pattern) => pattern.matches(spec.name));
    if (denied !== undefined) {
      return deny(new ToolError('POLICY_DENIED', `${spec.displayName} is denied by policy pattern '${denied.pattern}'; remove that pattern from the deny list if the tool should run`, { tool: spec.displayName }));
    }
    if (!allowPatterns.some((pattern) => pattern.matches(spec.name))) {
      const list = allowPatterns.length === 0 ? 'the allow list is empty (deny by default)' : `allow list: ${allowPatterns.map((pattern) => pattern.pattern).join(', ')}`;
      return deny(new ToolError('POLICY_NOT_ALLOWED', `${spec.displayName} is not in the policy's allow list (${list}); add '${spec.displayName}' or a pattern matching it to the allow list${oneSegmentHint(allowPatterns, spec.name)}`, { tool: spec.displayName }));
    }
    if (spec.trusted && !trusted) {
      return deny(new ToolError('POLICY_TRUST_REQUIRED', `${spec.displayName} requires a trusted (config) context, which this policy is not (createPolicy({ trusted: true }) for trusted code only); a program cannot call it here: do without it`, { tool: spec.displayName }));
    }
    return ALLOWED;
  };

  /** Step 4 without arguments: the declared capabilities, verbs only. */
  const staticCapabilities = (spec: ToolSpec): PolicyDecision => {
    for (const capability of spec.capabilities) {
      const error = checkCapability(spec, capability);
      if (error !== undefined) return deny(error);
    }
    return ALLOWED;
  };

  const check = (spec: ToolSpec): PolicyDecision => {
    const decision = gate(spec);
    return decision.ok ? staticCapabilities(spec) : decision;
  };

  const authorize = (spec: ToolSpec, args: ToolArguments, counters?: CallCounters): PolicyDecision => {
    const decision = gate(spec);
    if (!decision.ok) return decision;
    // The scoped needs before the bare verbs: a denial then names the grant that fits this call
    // (fs:delete:/public/x.txt), not the bare verb (fs:delete) that would grant it everywhere.
    for (const capability of scopeNeeds(spec, args)) {
      const error = checkCapability(spec, capability);
      if (error !== undefined) return deny(error);
    }
    const declared = staticCapabilities(spec);
    if (!declared.ok) return declared;
    return counters === undefined ? ALLOWED : countCall(spec, counters);
  };

  const countCall = (spec: ToolSpec, counters: CallCounters): PolicyDecision => {
    const toolLimit = toolLimits.get(spec.name);
    // Each says what a program can still do: the message goes back to the model.
    const nextTurn = '; the count starts again next turn: make the remaining calls then';
    const noMore = '; no more are allowed in this session: finish without them';
    const times = (count: number | undefined) => (count === 1 ? '1 time' : `${count} times`);
    const checks: [number | undefined, number, string][] = [
      [toolLimit?.perTurn, counters.turn.perTool.get(spec.name) ?? 0, `${spec.displayName} may be called ${times(toolLimit?.perTurn)} per turn${nextTurn}`],
      [toolLimit?.perSession, counters.session.perTool.get(spec.name) ?? 0, `${spec.displayName} may be called ${times(toolLimit?.perSession)} per session${noMore}`],
      [limits.perTurn, counters.turn.total, `at most ${limits.perTurn} tool calls are allowed per turn${nextTurn}`],
      [limits.perSession, counters.session.total, `at most ${limits.perSession} tool calls are allowed per session${noMore}`],
    ];
    for (const [limit, used, message] of checks) {
      if (limit !== undefined && used >= limit) {
        return deny(new ToolError('POLICY_CALL_LIMIT', `${spec.displayName} exceeded its call limit: ${message}`, { tool: spec.displayName }));
      }
    }
    countCallIn(counters.turn, spec.name);
    countCallIn(counters.session, spec.name);
    return ALLOWED;
  };

  return Object.freeze({
    allow: Object.freeze(allowPatterns.map((pattern) => pattern.pattern)),
    deny: Object.freeze(denyPatterns.map((pattern) => pattern.pattern)),
    grants,
    trusted,
    limits,
    check,
    authorize,
    countCall,
    satisfies: (capability: string | Capability) => findUncoveredNeed(typeof capability === 'string' ? parseCapability(capability) : capability, grants) === undefined,
    checkCapability,
  });
}
