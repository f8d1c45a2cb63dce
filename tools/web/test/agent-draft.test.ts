import { describe, expect, it } from "vitest";
import {
  bodyOf,
  draftOf,
  draftProblems,
  formFieldOf,
  modelKey,
  placeErrors,
  slugOf,
} from "../client/agent-draft.js";
import { agentPath, type ConfiguredAgent, errorOf } from "../client/agents-api.js";

/** An agent as CAIPE's API answers it, with what the form does not show (builtin namespace, decisions). */
const REVIEWER: ConfiguredAgent = {
  _id: "code-reviewer",
  name: "Code reviewer",
  description: "Reviews pull requests",
  system_prompt: "You review code.",
  model: { id: "claude-sonnet-4", provider: "anthropic-claude" },
  allowed_tools: { github: ["get_pull_request", "create_review"], memory: true, retired: false },
  interrupt_on: {
    github: { create_review: { allowed_decisions: ["approve", "reject"] } },
    builtin: { fetch_url: true },
  },
  subagents: [
    { agent_id: "linter", name: "linter", description: "Lints" },
    { name: "weather", description: "Weather", url: "http://weather.internal:8000" },
  ],
  visibility: "global",
  owner_team: "platform",
  shared_with_teams: ["sre"],
  enabled: false,
};

describe("an agent as the form holds it, and the body sent for it", () => {
  it("round-trips CAIPE's agent, keeping what the form does not show", () => {
    const draft = draftOf(REVIEWER);
    expect(draft.tools).toEqual({
      github: { mode: "some", only: ["get_pull_request", "create_review"], askFirst: ["create_review"] },
      memory: { mode: "all", only: [], askFirst: [] },
    });
    expect(draft.model).toBe(modelKey("anthropic-claude", "claude-sonnet-4"));
    expect(draft.subagents.map((sub) => sub.kind)).toEqual(["agent", "url"]);
    expect(bodyOf(draft, REVIEWER)).toEqual({
      id: "code-reviewer",
      name: "Code reviewer",
      description: "Reviews pull requests",
      system_prompt: "You review code.",
      model: { id: "claude-sonnet-4", provider: "anthropic-claude" },
      allowed_tools: { github: ["get_pull_request", "create_review"], memory: true },
      interrupt_on: {
        builtin: { fetch_url: true },
        github: { create_review: { allowed_decisions: ["approve", "reject"] } },
      },
      subagents: [
        { agent_id: "linter", name: "linter", description: "Lints" },
        { name: "weather", description: "Weather", url: "http://weather.internal:8000" },
      ],
      visibility: "global",
      owner_team_slug: "platform",
      shared_with_teams: ["sre"],
      enabled: false,
    });
  });

  it("drops a server set to not used, with its confirmations", () => {
    const draft = draftOf(REVIEWER);
    draft.tools.github = { mode: "off", only: [], askFirst: ["create_review"] };
    const body = bodyOf(draft, REVIEWER);
    expect(body.allowed_tools).toEqual({ memory: true });
    expect(body.interrupt_on).toEqual({ builtin: { fetch_url: true } });
  });

  it("never sends 'only these tools' with none picked as [], which CAIPE reads as every tool", () => {
    const draft = draftOf(REVIEWER);
    draft.tools.github = { mode: "some", only: [], askFirst: [] };
    expect(draftProblems(draft)).toEqual({
      "tools.github": "Pick at least one tool, or choose All its tools or Not used.",
    });
    expect(bodyOf(draft, REVIEWER).allowed_tools).toEqual({ memory: true });
    expect(draftProblems(draftOf(REVIEWER))).toEqual({});
  });

  it("makes an id of a name as CAIPE's form does", () => {
    expect(slugOf("  Platform Helper <img src=x> v2 ")).toBe("platform-helper-img-src-x-v2");
  });
});

describe("the API's refusals, placed beside the fields they name", () => {
  it("reads CAIPE's envelope with problems, FastAPI's detail list, and a single field", () => {
    expect(
      errorOf(422, {
        success: false,
        error: "The agent is not valid.",
        problems: [
          { field: "allowed_tools.nope", message: "No tool source nope." },
          { field: "model.id", message: "Unknown model." },
        ],
      }).fields,
    ).toEqual({ "allowed_tools.nope": "No tool source nope.", "model.id": "Unknown model." });
    const fastApi = errorOf(422, {
      detail: [{ loc: ["body", "subagents", 1, "url"], msg: "not an http(s) URL", type: "value_error" }],
    });
    expect(fastApi.fields).toEqual({ "subagents[1].url": "not an http(s) URL" });
    expect(fastApi.message).toBe("not an http(s) URL");
    expect(errorOf(422, { success: false, error: "Required.", field: "system_prompt" }).fields).toEqual({
      system_prompt: "Required.",
    });
    const off = errorOf(503, { success: false, code: "dynamic_agents_off", error: "off" });
    expect(off.off).toBe(true);
    expect(errorOf(502, "not json").message).toBe("The dynamic-agents host answered HTTP 502.");
  });

  it("maps each path onto the form's field, and keeps the rest to list by name", () => {
    expect(formFieldOf("model.id")).toBe("model");
    expect(formFieldOf("model_provider")).toBe("model");
    expect(formFieldOf("agents[2].allowed_tools.github")).toBe("tools.github");
    expect(formFieldOf("interrupt_on.github.create_review")).toBe("tools.github");
    expect(formFieldOf("subagents[1].url")).toBe("subagents.1.url");
    expect(formFieldOf("subagents[1]")).toBe("subagents.1");
    expect(formFieldOf("subagents[1].headers")).toBe("subagents.1");
    expect(formFieldOf("body.name")).toBe("name");
    expect(formFieldOf("owner_team")).toBe("owner_team_slug");
    const shown = new Set(["name", "model", "tools.github", "subagents.1"]);
    expect(
      placeErrors(
        { "model.id": "Unknown model.", "builtin_tools.fetch_url": "No such tool.", name: "Empty." },
        shown,
      ),
    ).toEqual({
      byField: { model: "Unknown model.", name: "Empty." },
      other: [{ field: "builtin_tools.fetch_url", message: "No such tool." }],
    });
  });
});

describe("an agent's address", () => {
  it("encodes the id the API gave, and refuses one the browser would resolve elsewhere", () => {
    expect(agentPath("platform-helper")).toBe("/api/v1/agents/platform-helper");
    expect(agentPath("../mcp-servers")).toBe("/api/v1/agents/..%2Fmcp-servers");
    for (const id of ["", ".", ".."]) expect(() => agentPath(id)).toThrow(/cannot be its address/);
  });
});
