/**
 * What an agent is: which model it asks, in which control dialect, under which
 * policy, quotas and ceilings. Definitions come from code (plugins) or from a
 * JSON/YAML file (`parseAgentDefinition`); every field but `name` and `model`
 * has a default (`resolveAgentDefinition`).
 */
import type { RunLimits } from '@askloop/interpreter';
import type { GenerationSettings } from '@askloop/providers';
import type { PolicyLimits } from '@askloop/tools';

/** The agent's tool policy (same meaning as `@askloop/tools`' `createPolicy` options). */
export interface AgentPolicy {
  /** Tool-name globs that may run (`tool.str.*`). Default: the safe built-in groups. */
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
  /** Capability grants (`fs:read:/notes/**`, `net:read:api.example.com`, `mcp:call:git`). */
  readonly grants?: readonly string[];
  readonly trusted?: boolean;
  readonly limits?: PolicyLimits;
}

/** Per-turn quotas of the sandboxed run (a subset of the interpreter's `RunLimits`). */
export type TurnQuotas = Partial<Pick<RunLimits, 'fuel' | 'wallMs' | 'memoryMb' | 'toolCalls' | 'outputBytes' | 'scratchpadBytes'>>;

/** Ceilings over the whole loop, enforced by the host (seed 002 §7). */
export interface LoopCeilings {
  /** Turns before HALT `ERR_MAX_TURNS_EXCEEDED`. Default 8. */
  readonly maxTurns?: number;
  /** Wall clock of the whole loop in ms, its turns' busy time (`ERR_TIMEOUT`); a model call or run is cut when it runs out. Default: none. */
  readonly wallMs?: number;
  /** Evaluation steps over all turns (`ERR_QUOTA`). */
  readonly fuel?: number;
  /** Input + output tokens over all turns (`ERR_BUDGET`). */
  readonly tokens?: number;
  /** US dollars over all turns (`ERR_BUDGET`); needs a model with prices (a run without them is refused, `LOOP_AGENT_INVALID`). */
  readonly costUsd?: number;
  /** Tool calls over all turns (`ERR_QUOTA`). */
  readonly toolCalls?: number;
}

/** An agent, as authored. */
export interface AgentDefinition {
  /** Unique name (`[a-z][a-z0-9_-]*`), used by `askloop run --agent NAME`. */
  readonly name: string;
  /** `provider:model`, e.g. `openai:gpt-4.1-mini` or `scripted:demo`. */
  readonly model: string;
  readonly description?: string;
  readonly settings?: GenerationSettings;
  /** Control dialect: `v4` (`<<<LOOP:DONE>>>`, default) or `v1` (control JSON and `[[loop:…]]` markers). */
  readonly dialect?: 'v4' | 'v1';
  /** False: exactly one turn, whatever the program emits. Default true. */
  readonly toolLoopPermitted?: boolean;
  /** More system text, appended after the protocol rules on every turn. */
  readonly instructions?: string;
  /**
   * What the agent's programs may call: allow and deny globs, capability
   * grants, trust, call limits. Without `allow`, the built-in host-local
   * groups of {@link DEFAULT_AGENT_ALLOW}; with it, exactly that list.
   */
  readonly policy?: AgentPolicy;
  readonly quotas?: TurnQuotas;
  readonly ceilings?: LoopCeilings;
  /** Identical digests in a row before HALT `ERR_NO_PROGRESS` (seed 002 §6). Default 3. */
  readonly noProgressN?: number;
  /** Before the no-progress halt, one nudge turn telling the model it repeats itself. Default true. */
  readonly nudge?: boolean;
  /** Feed the first N consecutive failures (envelope, syntax, check, quota, timeout) back as SYSTEM_ERROR output instead of halting. Default 0. */
  readonly repair?: number;
  /** Consecutive run-time-error turns before HALT `ERR_TOO_MANY_ERRORS`. Default 3. */
  readonly maxErrorStreak?: number;
  /** On a turns/budget halt, one last turn asking the model to answer now. Default false. */
  readonly answerNow?: boolean;
  /** Nesting limit of `ask` statements reaching back into the controller (seed 004). Default 2. */
  readonly maxAskDepth?: number;
  /**
   * The agents this agent's programs may `ask` (their names, or `*` for any).
   * Default none: `ask` is refused by the check (`ERR_PERMISSIONS`). An asked
   * agent works under its own policy, so listing one grants what it may do;
   * each `ask` counts as a call against this agent's `policy.limits.perTurn` and `perSession`.
   */
  readonly asks?: readonly string[];
}

/** Every field filled in (see {@link resolveAgentDefinition}). */
export interface ResolvedAgentDefinition extends Required<Omit<AgentDefinition, 'description' | 'settings' | 'instructions'>> {
  readonly description: string;
  readonly settings: GenerationSettings;
  readonly instructions: string;
  readonly policy: AgentPolicy & { readonly allow: readonly string[]; readonly deny: readonly string[]; readonly grants: readonly string[]; readonly trusted: boolean };
  readonly quotas: TurnQuotas;
  readonly ceilings: LoopCeilings & { readonly maxTurns: number };
}

/** Tool groups an agent may use when its policy names none: pure, host-local, no capabilities. */
export const DEFAULT_AGENT_ALLOW: readonly string[] = Object.freeze([
  'tool.str.*', 'tool.list.*', 'tool.math.*', 'tool.json.*', 'tool.map.*', 'tool.time.*',
  'tool.memory.*', 'tool.scratch.*', 'tool.system.*', 'tool.policy.*', 'tool.capsule.*',
]);

/** Fills every optional field with its default. Does not validate (see `parseAgentDefinition`). */
export function resolveAgentDefinition(definition: AgentDefinition): ResolvedAgentDefinition {
  return {
    name: definition.name,
    model: definition.model,
    description: definition.description ?? '',
    settings: definition.settings ?? {},
    dialect: definition.dialect ?? 'v4',
    toolLoopPermitted: definition.toolLoopPermitted ?? true,
    instructions: definition.instructions ?? '',
    policy: {
      allow: definition.policy?.allow ?? DEFAULT_AGENT_ALLOW,
      deny: definition.policy?.deny ?? [],
      grants: definition.policy?.grants ?? [],
      trusted: definition.policy?.trusted ?? false,
      ...(definition.policy?.limits === undefined ? {} : { limits: definition.policy.limits }),
    },
    quotas: definition.quotas ?? {},
    ceilings: { ...definition.ceilings, maxTurns: definition.ceilings?.maxTurns ?? 8 },
    noProgressN: definition.noProgressN ?? 3,
    nudge: definition.nudge ?? true,
    repair: definition.repair ?? 0,
    maxErrorStreak: definition.maxErrorStreak ?? 3,
    answerNow: definition.answerNow ?? false,
    maxAskDepth: definition.maxAskDepth ?? 2,
    asks: definition.asks ?? [],
  };
}
