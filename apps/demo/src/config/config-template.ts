/**
 * The commented `askloop.config.yaml` that `askloop init` writes. It must
 * load as it is (a test checks it), and it holds no key: providers read
 * theirs from the environment.
 */

/** The file's text. */
export const CONFIG_TEMPLATE = `# askloop.config.yaml — read by askloop run/resume/approve/deny/replay in this
# folder (or with --config FILE). Unknown keys are errors, so a typo never
# silently falls back to a default.
#
# API keys are NEVER written here. Each provider reads its own environment
# variable: OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY (or
# GOOGLE_GENERATIVE_AI_API_KEY), OLLAMA_HOST. A key-like value in this file is
# refused (CONFIG_SECRET).

# Plugins: installed packages (npm install NAME next to this file) or ./paths,
# each default-exporting an AskLoop plugin — providers, tool packs, agents,
# hooks. Their providers and tools are usable by the agents below. A plugin
# whose default export is a factory takes options: write the entry as package:
# and options: (plain data, handed to the factory). No key goes there either:
# name the environment variable that holds it (tokenEnv below), if the
# plugin's documentation offers such an option.
plugins: []
#  - askloop-plugin-acme
#  - ./plugins/my-tools
#  - package: askloop-plugin-tracker
#    options: { baseUrl: https://tracker.example.com, project: ops, tokenEnv: TRACKER_TOKEN }

# Where sessions are stored (SQLite). Relative to this file; ~ is your home.
# Without it: $XDG_DATA_HOME/askloop/sessions.db or ~/.local/share/askloop/sessions.db.
# store:
#   path: .askloop/sessions.db
# Or a PostgreSQL server several hosts share (askloop worker; askloop run --detach):
# store: postgres://askloop@db.internal:5432/askloop

# tool.http.Fetch: a net grant pattern (net:read:*, net:read:*.corp.internal)
# reaches public addresses only; a loopback or private host (localhost, 10.x,
# 192.168.x) is reached by a grant naming it (net:read:10.0.0.5). For a
# private network whose hosts the agents' patterns should reach:
# http:
#   specialAddresses: granted

# Model defaults for every agent below (an agent's own fields win), and for
# askloop run without --agent.
models:
  default: openai:gpt-4.1-mini     # provider:model: anthropic:claude-sonnet-4-5, google:gemini-2.5-flash, ollama:qwen3:8b, …
  settings:
    temperature: 0
    maxOutputTokens: 2048

# Settings of the built-in providers (openai, anthropic, google, ollama);
# keys stay in the environment. Prices (US dollars per million tokens, by
# model id) give turns a cost and let an agent set ceilings.costUsd.
# providers:
#   openai:
#     baseURL: https://proxy.example.com/v1   # else OPENAI_BASE_URL, else OpenAI's
#     timeoutMs: 60000                        # one attempt (default 120000; 0: none)
#     retry: { maxRetries: 4 }                # default 2
#     prices:
#       gpt-4.1-mini: { inputPerMillion: 0.4, outputPerMillion: 1.6 }

# Per-turn quotas of the sandboxed program, for every agent.
quotas:
  fuel: 200000                     # evaluation steps
  wallMs: 30000                    # milliseconds per turn
  toolCalls: 50

# Ceilings over the whole loop, for every agent.
ceilings:
  maxTurns: 8
  tokens: 200000                   # input + output tokens (ERR_BUDGET)

# Agents: askloop run --agent NAME "task". Fields: model, description,
# instructions, dialect (v4|v1), policy {allow, deny, grants}, quotas,
# ceilings, settings, repair, noProgressN, nudge, answerNow, maxAskDepth,
# asks (the agents this one may \`ask\`; none unless listed).
agents:
  hello:
    description: Answers small text questions with the string and list tools.
    instructions: Keep programs short; finish as soon as you have the answer.
    policy:
      allow: ["tool.str.*", "tool.list.*", "tool.math.*"]
    # model: ollama:qwen3:8b       # a local model for this agent only

# MCP servers whose tools agents may use as tool.NAME.<Tool> (allow them with
# policy.allow: ["tool.NAME.*"] and policy.grants: ["mcp:call:NAME"]).
# A secret an MCP server needs goes in the environment and is referred to as \${NAME}.
# mcpServers:
#   git:
#     command: uvx
#     args: [mcp-server-git, --repository, .]
#   tracker:
#     url: https://mcp.example.com/mcp
#     headers:
#       Authorization: Bearer \${TRACKER_TOKEN}
`;
