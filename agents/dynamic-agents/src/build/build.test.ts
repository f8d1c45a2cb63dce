import { describe, expect, it } from "vitest";
import type { AgentSpec } from "../definitions/spec.js";
import { asksFor } from "./confirmations.js";
import { modelEnv } from "./model.js";
import { subagentsFor } from "./subagents.js";
import { visibleTo } from "./visibility.js";

const spec = (fields: Partial<AgentSpec> = {}): AgentSpec => ({
  id: "helper",
  name: "Helper",
  description: "Helps",
  systemPrompt: "Help.",
  model: { id: "gpt-4o", provider: "azure-openai" },
  allowedTools: {},
  subagents: [],
  visibility: "global",
  sharedWithTeams: [],
  enabled: true,
  source: "config",
  revision: "r1",
  ...fields,
});

const user = (groups: string[]) => ({ subject: "u", groups, authenticated: true });

describe("an agent's model", () => {
  it("is the spec's provider and model in the runtime's variables, over the agent's own overrides", () => {
    const env = modelEnv(spec(), {
      LLM_PROVIDER: "openai",
      HELPER_LLM_PROVIDER: "openai",
      AZURE_OPENAI_API_KEY: "k",
    });
    expect(env).toMatchObject({
      LLM_PROVIDER: "azure-openai",
      AZURE_OPENAI_DEPLOYMENT: "gpt-4o",
      AZURE_OPENAI_API_KEY: "k",
    });
    expect(env).not.toHaveProperty("HELPER_LLM_PROVIDER");
    expect(modelEnv(spec({ model: { id: "m", provider: "aws-bedrock" } }), {})).toMatchObject({
      AWS_BEDROCK_MODEL_ID: "m",
    });
  });

  it("runs an agent on Switchboard's offline model when it names provider offline (the npm start example)", () => {
    const env = modelEnv(spec({ model: { id: "offline", provider: "offline" } }), {
      LLM_PROVIDER: "openai",
      HELPER_LLM_PROVIDER: "openai",
    });
    expect(env).toMatchObject({ LLM_PROVIDER: "offline" });
    expect(env).not.toHaveProperty("HELPER_LLM_PROVIDER");
  });

  it("names the agent and the field when the provider is unknown", () => {
    expect(modelEnv(spec({ model: { id: "m", provider: "watsonx" } }), {})).toMatchObject({
      agent: "helper",
      field: "model.provider",
      message: expect.stringContaining("azure-openai"),
    });
  });
});

describe("interrupt_on", () => {
  it("leaves Switchboard's rule when unset", () => {
    expect(asksFor(spec(), "desk")).toBeUndefined();
  });

  it("asks for a named tool, by its own or its offered name; others only when their server marks them destructive", () => {
    const asks = asksFor(spec({ interruptOn: { desk: { list_tickets: true } } }), "desk");
    expect(asks?.("list_tickets")).toBe(true);
    expect(asks?.("desk_list_tickets")).toBe(true);
    expect(asks?.("create_ticket", { destructive: false })).toBe(false);
    expect(asks?.("close_ticket", { destructive: true })).toBe(true);
    // Another source's names do not leak across.
    expect(
      asksFor(spec({ interruptOn: { desk: { list_tickets: true } } }), "memory")?.("list_tickets", {}),
    ).toBeUndefined();
  });
});

describe("subagents", () => {
  const hostAgentUrl = (id: string) =>
    ["reviewer", "helper"].includes(id) ? `http://127.0.0.1:1/agents/${id}` : undefined;

  it("finds this host's agents by id (their cards carry it), and any A2A agent by url", () => {
    const { configs, problems } = subagentsFor(
      spec({
        subagents: [
          { name: "code-reviewer", description: "", agentId: "reviewer" },
          { name: "weather", description: "", url: "https://agents.example.com/weather/" },
        ],
      }),
      { hostAgentUrl },
    );
    expect(problems).toEqual([]);
    expect(configs).toEqual([
      expect.objectContaining({
        name: "code-reviewer",
        cardName: "reviewer",
        url: "http://127.0.0.1:1/agents/reviewer",
        directory: "dynamic-agents",
      }),
      expect.objectContaining({ name: "weather", url: "https://agents.example.com/weather" }),
    ]);
    expect(configs[1]?.cardName).toBeUndefined();
    // A directory token is for this host alone: never sent to an agent elsewhere.
    expect(configs[1]?.directory).toBeUndefined();
  });

  it("names the field and the fix for an agent this host does not serve, and refuses the agent itself", () => {
    const { problems } = subagentsFor(
      spec({
        subagents: [
          { name: "ghost", description: "", agentId: "ghost" },
          { name: "me", description: "", agentId: "helper" },
        ],
      }),
      { hostAgentUrl },
    );
    expect(problems).toEqual([
      expect.objectContaining({
        field: "subagents[0].agent_id",
        message: expect.stringContaining("give url"),
      }),
      expect.objectContaining({ field: "subagents[1].agent_id" }),
    ]);
  });
});

describe("visibility", () => {
  it("lets a team's agent be reached by its owner team and the teams it is shared with only", () => {
    const visible = visibleTo(
      spec({ visibility: "team", ownerTeam: "team-a", sharedWithTeams: ["team-c"] }),
      "jwt",
    );
    expect(visible(user(["team-a"]))).toBe(true);
    expect(visible(user(["team-c"]))).toBe(true);
    expect(visible(user(["team-b"]))).toBe(false);
    expect(visible({ subject: "local", groups: ["team-a"], authenticated: false })).toBe(false);
    expect(visibleTo(spec(), "jwt")(user([]))).toBe(true);
  });

  it("has no groups to read without sign-in: the local user reaches every agent", () => {
    expect(visibleTo(spec({ visibility: "team", ownerTeam: "team-a" }), "none")(user([]))).toBe(true);
  });
});
