import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { envPrefixFor, listAgentPackages, SUPERVISOR } from "@switchboard/contract";
import {
  createChatModel,
  type OfferedTool,
  PROVIDER_TOOL_RULES,
  type ToolRulesProvider,
  toolProblems,
} from "@switchboard/llm";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../test/fixture.js";

// Every agent's own tools, as each provider's LangChain client puts them on the wire (the client's own
// conversion: Gemini's drops what its schema subset lacks, the others send JSON Schema), held to the
// providers' tool rules table. A tool that breaks a rule would fail every turn on that provider.

/** Settings that make createChatModel build each provider's client; nothing is sent. */
const PROVIDER_ENV: Record<ToolRulesProvider, Record<string, string>> = {
  openai: { LLM_PROVIDER: "openai", OPENAI_API_KEY: "sk-test", OPENAI_MODEL_NAME: "gpt-4o" },
  "azure-openai": {
    LLM_PROVIDER: "azure-openai",
    AZURE_OPENAI_API_KEY: "test",
    AZURE_OPENAI_ENDPOINT: "https://example.openai.azure.com",
    AZURE_OPENAI_DEPLOYMENT: "gpt-4o",
    AZURE_OPENAI_API_VERSION: "2024-10-21",
  },
  "anthropic-claude": {
    LLM_PROVIDER: "anthropic-claude",
    ANTHROPIC_API_KEY: "sk-ant-test",
    ANTHROPIC_MODEL_NAME: "claude-sonnet-4-5",
  },
  "aws-bedrock": {
    LLM_PROVIDER: "aws-bedrock",
    AWS_BEDROCK_MODEL_ID: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "AKIATEST",
    AWS_SECRET_ACCESS_KEY: "test",
  },
  "google-gemini": { LLM_PROVIDER: "google-gemini", GOOGLE_API_KEY: "test" },
  ollama: { LLM_PROVIDER: "ollama", OLLAMA_MODEL: "llama3.1" },
};
const PROVIDERS = Object.keys(PROVIDER_TOOL_RULES) as ToolRulesProvider[];

/** A LangChain tool, as far as this test reads it. */
interface StructuredToolInterface {
  name: string;
}

type Params = Record<string, unknown> & { tools?: unknown[]; toolConfig?: { tools?: unknown[] } };
const record = (value: unknown) => (value ?? {}) as Record<string, unknown>;

/** The tools in a provider's request body, as name and parameters schema. */
function offered(provider: ToolRulesProvider, params: Params): OfferedTool[] {
  switch (provider) {
    case "anthropic-claude":
      return (params.tools ?? [])
        .map(record)
        .map((t) => ({ name: String(t.name), parameters: t.input_schema }));
    case "aws-bedrock":
      return (params.toolConfig?.tools ?? [])
        .map((t) => record(record(t).toolSpec))
        .map((spec) => ({ name: String(spec.name), parameters: record(spec.inputSchema).json }));
    case "google-gemini":
      return (params.tools ?? [])
        .flatMap((t) => (record(t).functionDeclarations ?? []) as unknown[])
        .map(record)
        .map((d) => ({ name: String(d.name), parameters: d.parameters }));
    default:
      return (params.tools ?? [])
        .map((t) => record(record(t).function))
        .map((f) => ({ name: String(f.name), parameters: f.parameters }));
  }
}

/** A logger that says nothing, for agents built here only to read their tools. */
const QUIET = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
  child: () => QUIET,
};

/** Each agent package's own tools (the supervisor's call_agent), from its source. */
async function agentTools(): Promise<Array<{ agent: string; tools: StructuredToolInterface[] }>> {
  const loaded = [];
  for (const agent of listAgentPackages(repoRoot)) {
    const src = join(repoRoot, "agents", agent.folder, "src");
    if (agent.name === SUPERVISOR) {
      // The delegating graph lives in packages/delegation since issue 48 (shared with configured
      // agents that delegate); before, in the supervisor's own src.
      const delegation = join(repoRoot, "packages", "delegation", "src", "graph.ts");
      const graphFile = existsSync(delegation) ? delegation : join(src, "graph.ts");
      const graph = (await import(pathToFileURL(graphFile).href)) as {
        callAgentTool: StructuredToolInterface;
      };
      loaded.push({ agent: agent.name, tools: [graph.callAgentTool] });
      continue;
    }
    const module = (await import(pathToFileURL(join(src, "agent.ts")).href)) as Record<string, unknown>;
    type Definition = { tools: (env: NodeJS.ProcessEnv) => Array<{ tool: StructuredToolInterface }> };
    const isDefinition = (value: unknown): value is Definition =>
      typeof value === "object" &&
      value !== null &&
      typeof (value as { tools?: unknown }).tools === "function";
    // An agent made from an OpenAPI description exports a factory (its tools are read from its
    // openapi.json at start), given its API's address as new-agent names it.
    const factory = Object.values(module).find((value) => typeof value === "function") as
      | ((env: NodeJS.ProcessEnv, logger: unknown) => Promise<unknown>)
      | undefined;
    const definition =
      Object.values(module).find(isDefinition) ??
      (factory
        ? await factory({ [`${envPrefixFor(agent.name)}_API_URL`]: "http://127.0.0.1:9/api" }, QUIET)
        : undefined);
    if (!isDefinition(definition))
      throw new Error(`agents/${agent.folder}/src/agent.ts exports no agent definition`);
    loaded.push({ agent: agent.name, tools: definition.tools({}).map((entry) => entry.tool) });
  }
  return loaded;
}

describe("every agent's tools", () => {
  it("keep every provider's tool rules, as each provider's client sends them", async () => {
    const agents = await agentTools();
    expect(agents.length).toBeGreaterThanOrEqual(17);
    const problems: string[] = [];
    let checked = 0;
    for (const provider of PROVIDERS) {
      const { model } = await createChatModel({ env: PROVIDER_ENV[provider] });
      const client = model as unknown as { invocationParams(options: { tools: unknown[] }): Params };
      for (const { agent, tools } of agents) {
        expect(tools.length, agent).toBeGreaterThan(0);
        const sent = offered(provider, client.invocationParams({ tools }));
        expect(sent.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
        checked += sent.length;
        for (const problem of toolProblems(provider, sent)) problems.push(`agent ${agent}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(PROVIDERS.length * 17);
  });
});
