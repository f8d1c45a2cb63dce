// biome-ignore-all lint/suspicious/noTemplateCurlyInString: CAIPE's file refers to variables as ${VAR}, on purpose.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { specOf } from "./agent-spec.js";
import { type AppConfig, readAppConfig } from "./app-config.js";
import { type Candidate, resolveAgents } from "./resolve.js";
import type { Definitions } from "./spec.js";

const fixtures = join(import.meta.dirname, "fixtures");
const fixture = (name: string) => readFileSync(join(fixtures, name), "utf8");

function read(text: string, env: NodeJS.ProcessEnv = {}): AppConfig {
  const result = readAppConfig(text, env, fixtures);
  if (!result.ok) throw new Error(`the file was refused: ${result.problem.message}`);
  return result.config;
}

/** The file's definitions as the source serves them (file only, no store). */
function definitionsOf(
  config: AppConfig,
  lastGood = new Map<string, Candidate>(),
): Definitions & { good: Map<string, Candidate> } {
  const resolved = resolveAgents({
    candidates: [...config.agents].map(([id, { at, fields }]) => ({
      spec: specOf(id, fields, "config"),
      at,
    })),
    invalid: config.invalid,
    toolSources: config.toolSources,
    disabledSources: new Set(config.disabledSources.keys()),
    models: config.models,
    lastGood,
  });
  return {
    agents: resolved.agents,
    toolSources: config.toolSources,
    models: config.models,
    problems: [...config.problems, ...resolved.problems],
    unused: config.unused,
    good: resolved.good,
  };
}

const agentsYaml = (...agents: string[]) =>
  `mcp_servers:\n  - id: github\n    transport: http\n    endpoint: http://localhost:8082/mcp\nagents:\n${agents.join("")}`;
const agent = (id: string, extra = "") =>
  `  - id: ${id}\n    name: ${id}\n    system_prompt: hi\n    model: { id: gpt-4o, provider: openai }\n${extra}`;

describe("CAIPE 0.6.0's app-config.yaml, read unchanged", () => {
  it("reads the file as it ships: its models, no agents, and says the workflow is not run", () => {
    const definitions = definitionsOf(read(fixture("caipe-0.6.0.yaml")));
    expect(definitions.models.map((model) => [model.modelId, model.provider])).toEqual([
      ["global.anthropic.claude-haiku-4-5-20251001-v1:0", "aws-bedrock"],
      ["global.anthropic.claude-sonnet-4-6", "aws-bedrock"],
      ["global.anthropic.claude-sonnet-4-5-20250929-v1:0", "aws-bedrock"],
      ["bedrock/global.anthropic.claude-haiku-4-5-20251001-v1:0", "openai"],
    ]);
    expect(definitions.agents).toEqual([]);
    expect(definitions.toolSources).toEqual([]);
    expect(definitions.problems).toEqual([]);
    expect(definitions.unused).toEqual([
      "workflow_configs (1 entry): ignored (CAIPE's workflows are not run by Switchboard)",
    ]);
  });

  it("reads its commented examples, filled in, as CAIPE's seed does", () => {
    const env = { TEAM_NAME: "Platform", ARGOCD_TOKEN: "t", PETSTORE_API_KEY: "k" };
    const definitions = definitionsOf(read(fixture("caipe-0.6.0-filled.yaml"), env));
    expect(definitions.problems).toEqual([]);
    const [generalist, engineer] = definitions.agents;
    // Legacy model_id/model_provider, CAIPE's seed defaults.
    expect(generalist).toMatchObject({
      id: "default-agent",
      name: "Default Agent",
      description: "General-purpose assistant",
      systemPrompt: "You are a helpful assistant.",
      model: { id: "gpt-4o", provider: "azure-openai" },
      allowedTools: {},
      subagents: [],
      visibility: "global",
      sharedWithTeams: [],
      enabled: true,
      source: "config",
    });
    expect(generalist?.interruptOn).toBeUndefined();
    expect(engineer).toMatchObject({
      id: "platform-engineer",
      systemPrompt: "You are Platform team's engineer.",
      model: { id: "global.anthropic.claude-sonnet-4-6", provider: "aws-bedrock" },
      // false dropped, [] is every tool (CAIPE's legacy spelling).
      allowedTools: {
        github: true,
        argocd: ["list_applications", "sync_application"],
        "knowledge-base": true,
        petstore: true,
      },
      interruptOn: {
        argocd: { sync_application: true },
        builtin: { request_user_input: { allowed_decisions: ["approve", "reject"] } },
      },
      subagents: [
        { name: "generalist", description: "Answers general questions", agentId: "default-agent" },
        { name: "weather", description: "CAIPE's Python weather agent", url: "http://localhost:8002" },
      ],
      // CAIPE's retired "private" is "team"; the owner team is not also a shared one.
      visibility: "team",
      ownerTeam: "platform",
      sharedWithTeams: ["sre"],
    });
    expect(engineer?.revision).toMatch(/^[0-9a-f]{16}$/);
  });

  it("makes tool sources of its servers, keeping ${VAR} references for the runtime to fill in", () => {
    const definitions = definitionsOf(
      read(fixture("caipe-0.6.0-filled.yaml"), { ARGOCD_TOKEN: "s3cr3t-token" }),
    );
    const byId = Object.fromEntries(definitions.toolSources.map((source) => [source.id, source]));
    expect(Object.keys(byId)).toEqual(["github", "argocd", "knowledge-base", "events", "memory", "petstore"]);
    expect(byId.github).toEqual({
      kind: "mcp",
      id: "github",
      name: "GitHub",
      description: "GitHub repositories and pull requests",
      config: { transport: "http", url: "${GITHUB_MCP_URL:-http://localhost:8082}", headers: {} },
    });
    expect(byId.argocd).toMatchObject({ config: { headers: { Authorization: "Bearer ${ARGOCD_TOKEN}" } } });
    expect(JSON.stringify(definitions)).not.toContain("s3cr3t-token");
    expect(byId.events).toMatchObject({ config: { transport: "sse", url: "http://localhost:9447/sse" } });
    expect(byId.memory).toMatchObject({
      config: {
        transport: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-memory"],
        env: { MEMORY_FILE_PATH: "${MEMORY_FILE:-/tmp/memory.json}" },
      },
    });
    expect(byId.petstore).toEqual({
      kind: "openapi",
      id: "petstore",
      name: "Petstore",
      description: "The pet store's API",
      document: join(fixtures, "petstore.yaml"),
      baseUrl: "https://petstore.example.com/v3",
      auth: { api_key: "${PETSTORE_API_KEY}" },
    });
    // A disabled server is no tool source.
    expect(byId.legacy).toBeUndefined();
  });

  it("names, one line each, what it does not take from the file", () => {
    const { unused } = definitionsOf(read(fixture("caipe-0.6.0-filled.yaml")));
    expect(unused).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^mcp_servers\[2\]\.credential_sources: ignored \(CAIPE's credential sources/),
        "mcp_servers[5] (legacy): enabled: false, so no agent gets its tools",
        "agents[1].skills: ignored (CAIPE skills have no home in Switchboard)",
        expect.stringMatching(/^agents\[1\]\.builtin_tools: ignored \(CAIPE's built-in tools/),
        "agents[1].ui: ignored (the web chat has no per-agent themes)",
      ]),
    );
    // An empty CAIPE list says nothing.
    expect(unused.some((line) => line.startsWith("agents[1].datasource_ids"))).toBe(false);
  });
});

describe("openapi_sources bounds on a large description", () => {
  const source = (extra: string) =>
    `openapi_sources:\n  - id: fleet\n    document: ./fleet.yaml\n${extra}agents: []\n`;

  it("takes tags, operations and max_tools, passed on as the tools' options", () => {
    const config = read(
      source(
        "    tags: [billing, storage]\n    operations: [getStorageBucket, list_billing_accounts]\n    max_tools: 12\n",
      ),
    );
    expect(config.problems).toEqual([]);
    expect(config.toolSources).toEqual([
      {
        kind: "openapi",
        id: "fleet",
        name: "fleet",
        document: join(fixtures, "fleet.yaml"),
        tags: ["billing", "storage"],
        operations: ["getStorageBucket", "list_billing_accounts"],
        maxTools: 12,
      },
    ]);
    // None given: the tools' defaults (every operation, 40 tools).
    expect(read(source("")).toolSources[0]).not.toHaveProperty("maxTools");
  });

  it("refuses a bound that is no whole number of tools, or lists that are not names, naming the field", () => {
    for (const [extra, field] of [
      ["    max_tools: 0\n", "openapi_sources[0].max_tools"],
      ["    max_tools: 2.5\n", "openapi_sources[0].max_tools"],
      ["    max_tools: many\n", "openapi_sources[0].max_tools"],
      ["    tags: billing\n", "openapi_sources[0].tags"],
      ['    operations: [""]\n', "openapi_sources[0].operations[0]"],
    ] as const) {
      const config = read(source(extra));
      expect(config.toolSources, extra).toEqual([]);
      expect(config.problems, extra).toEqual([expect.objectContaining({ field })]);
    }
    expect(read(source("    max_tools: -3\n")).problems[0]?.message).toContain(
      "a whole number of tools, 1 or more",
    );
  });
});

describe("openapi_sources server variables and token URLs", () => {
  const source = (extra: string) =>
    `openapi_sources:\n  - id: fleet\n    document: ./fleet.yaml\n${extra}agents: []\n`;

  it("takes server_variables and token_urls, passed on as openApiTools' serverVariables and tokenUrls", () => {
    const config = read(
      source(
        "    server_variables: { region: eu, version: v2 }\n    token_urls: { oauthClient: https://login.fleet.example.com/oauth/token }\n",
      ),
    );
    expect(config.problems).toEqual([]);
    expect(config.toolSources[0]).toMatchObject({
      serverVariables: { region: "eu", version: "v2" },
      tokenUrls: { oauthClient: "https://login.fleet.example.com/oauth/token" },
    });
    expect(read(source("")).toolSources[0]).not.toHaveProperty("serverVariables");
    expect(read(source("")).toolSources[0]).not.toHaveProperty("tokenUrls");
  });

  it("refuses a token URL that is not http(s), and values that are not text, naming the field", () => {
    for (const [extra, field] of [
      ["    token_urls: { oauthClient: file:///etc/passwd }\n", "openapi_sources[0].token_urls.oauthClient"],
      ["    token_urls: { oauthClient: not a url }\n", "openapi_sources[0].token_urls.oauthClient"],
      ["    server_variables: [eu]\n", "openapi_sources[0].server_variables"],
      ["    server_variables: { region: { nested: eu } }\n", "openapi_sources[0].server_variables.region"],
    ] as const) {
      const config = read(source(extra));
      expect(config.toolSources, extra).toEqual([]);
      expect(config.problems, extra).toEqual([expect.objectContaining({ field })]);
    }
  });
});

describe("${VAR} expansion, as CAIPE's seed", () => {
  const text = agentsYaml(
    agent("a", '    description: "${DESC:-the default}"\n').replace(
      "system_prompt: hi",
      'system_prompt: "key: ${UNSET_VAR}"',
    ),
  );

  it("fills in set variables and defaults, blank counting as unset", () => {
    expect(definitionsOf(read(text, { DESC: "set" })).agents[0]?.description).toBe("set");
    expect(definitionsOf(read(text, { DESC: "  " })).agents[0]?.description).toBe("the default");
  });

  it("leaves an unset variable without a default empty, and says where", () => {
    const definitions = definitionsOf(read(text));
    expect(definitions.agents[0]?.systemPrompt).toBe("key: ");
    expect(definitions.problems).toEqual([
      {
        field: "agents[0].system_prompt",
        message:
          "${UNSET_VAR} is unset and has no default, so it was left empty: set UNSET_VAR, or write ${UNSET_VAR:-<default>}",
      },
    ]);
  });
});

describe("a broken file", () => {
  const refused = (text: string) => {
    const result = readAppConfig(text, {}, fixtures);
    if (result.ok) throw new Error("the file was read");
    return result.problem;
  };

  it("is refused whole when it is not YAML, or its sections are not lists", () => {
    expect(refused("agents: [\n  - id: a\n")).toMatchObject({
      field: "APP_CONFIG_FILE",
      message: expect.stringMatching(/^not valid YAML/),
    });
    expect(refused("agents:\n  id: a\n").message).toBe("agents: expected a list (- entries), not object");
    expect(refused("- a\n- b\n").message).toMatch(/expected a mapping of sections/);
    expect(refused("agents: []\nagents: []\n").message).toMatch(/^not valid YAML/);
  });

  it("refuses a file that expands aliases into millions of entries", () => {
    const lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let level = 1; level < 9; level++) {
      const previous = String.fromCharCode(96 + level);
      const name = String.fromCharCode(97 + level);
      lines.push(`${name}: &${name} [${Array(10).fill(`*${previous}`).join(", ")}]`);
    }
    expect(refused(lines.join("\n")).message).toMatch(/^not valid YAML.*alias/i);
  });

  it("leaves out only the agent with a bad field, naming the field and the fix", () => {
    const definitions = definitionsOf(
      read(
        agentsYaml(
          agent("good"),
          agent("typed", "    allowed_tools:\n      github: yes-please\n"),
          agent("unknown-server", "    allowed_tools:\n      gitlab: true\n"),
          agent("no-model").replace("    model: { id: gpt-4o, provider: openai }\n", ""),
          agent("bad-provider").replace("provider: openai", "provider: gcp-vertexai"),
        ),
      ),
    );
    expect(definitions.agents.map((one) => one.id)).toEqual(["good"]);
    expect(definitions.problems).toEqual([
      {
        agent: "typed",
        field: "agents[1].allowed_tools.github",
        message: "use true (every tool), false, or a list of tool names",
      },
      {
        agent: "no-model",
        field: "agents[3].model",
        message:
          "give the agent a model: model: {id, provider} (or CAIPE's legacy model_id and model_provider)",
      },
      {
        agent: "bad-provider",
        field: "agents[4].model.provider",
        message: expect.stringMatching(
          /^use one of CAIPE's providers \(openai, azure-openai.*\) or Switchboard's offline$/,
        ),
      },
      {
        agent: "unknown-server",
        field: "agents[2].allowed_tools.gitlab",
        message:
          'no mcp_servers or openapi_sources entry has the id "gitlab": add one, or remove it here (it is left out until fixed)',
      },
    ]);
  });

  it("keeps an agent's last good version when an edit breaks it", () => {
    const before = definitionsOf(read(agentsYaml(agent("a"), agent("b"))));
    const after = definitionsOf(
      read(
        agentsYaml(
          agent("a").replace("system_prompt: hi", "system_prompt: changed"),
          agent("b", "    enabled: maybe\n"),
        ),
      ),
      before.good,
    );
    expect(after.agents.map((one) => [one.id, one.systemPrompt])).toEqual([
      ["a", "changed"],
      ["b", "hi"],
    ]);
    expect(after.agents[1]?.revision).toBe(before.agents[1]?.revision);
    expect(after.problems).toEqual([
      { agent: "b", field: "agents[1].enabled", message: "expected a boolean, not a string" },
    ]);
  });
});

describe("a hostile definition", () => {
  const problemsOf = (...agents: string[]) => definitionsOf(read(agentsYaml(...agents))).problems;

  it("may not take an id that is a path, an operator, or a packaged agent's name", () => {
    for (const id of [
      '"../../etc/passwd"',
      '"$where"',
      '"A B"',
      "github",
      "supervisor",
      '"dynamic_agents"',
    ]) {
      const [problem] = problemsOf(agent(id));
      expect(problem?.field).toBe("agents[0].id");
    }
    expect(problemsOf(agent("github"))[0]?.message).toBe(
      '"github" is the name of Switchboard\'s github agent (its collections and policies): choose another id',
    );
    expect(problemsOf(agent("dynamic-agents-helper"))).toEqual([]);
  });

  it("is bounded in size", () => {
    const [problem] = problemsOf(
      agent("big").replace("system_prompt: hi", `system_prompt: "${"x".repeat(100_001)}"`),
    );
    expect(problem).toMatchObject({
      field: "agents[0].system_prompt",
      message: "system_prompt: at most 100000 characters",
    });
  });

  it("may not delegate in a cycle: the agents in it are named", () => {
    const sub = (to: string) => `    subagents:\n      - { agent_id: ${to}, name: ${to}, description: d }\n`;
    const definitions = definitionsOf(
      read(
        agentsYaml(agent("a", sub("b")), agent("b", sub("c")), agent("c", sub("a")), agent("d", sub("a"))),
      ),
    );
    expect(definitions.agents.map((one) => one.id)).toEqual([]);
    expect(definitions.problems[0]).toEqual({
      agent: "a",
      field: "agents[0].subagents",
      message:
        "agents delegate to each other in a cycle (a → b → c → a), so no request would end: remove one of these subagents (it is left out until fixed)",
    });
    // d delegates to a, which is out: d goes too, saying why.
    expect(definitions.problems.find((problem) => problem.agent === "d")?.field).toBe(
      "agents[3].subagents[0].agent_id",
    );
  });

  it("gives subagent urls that parse, kept as given (where they point is the host's to decide)", () => {
    const url = (value: string) => `    subagents:\n      - { name: x, description: d, url: "${value}" }\n`;
    const kept = definitionsOf(read(agentsYaml(agent("a", url("http://169.254.169.254/latest/meta-data")))));
    expect(kept.agents[0]?.subagents).toEqual([
      { name: "x", description: "d", url: "http://169.254.169.254/latest/meta-data" },
    ]);
    for (const bad of ["file:///etc/passwd", "not a url", "https://user:pw@agents.example.com/"]) {
      const [problem] = problemsOf(agent("a", url(bad)));
      expect(problem?.field).toBe("agents[0].subagents[0].url");
    }
    const [both] = problemsOf(agent("a", "    subagents:\n      - { name: x, description: d }\n"));
    expect(both?.message).toBe(
      "give agent_id (another configured agent) or url (any A2A agent), one of the two",
    );
  });

  it("may not misspell an interrupt_on namespace (its tools would run without asking)", () => {
    const [problem] = problemsOf(
      agent(
        "a",
        "    allowed_tools: { github: true }\n    interrupt_on:\n      githb: { create_issue: true }\n",
      ),
    );
    expect(problem).toMatchObject({ field: "agents[0].interrupt_on.githb" });
  });
});
