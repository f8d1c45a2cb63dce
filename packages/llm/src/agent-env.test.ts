import { SwitchboardError } from "@switchboard/common";
import { describe, expect, it } from "vitest";
import { agentLlmEnv, agentVariable, readAgentLlmSettings } from "./agent-env.js";
import { LLM_VARIABLES } from "./env.js";

const fleet = {
  LLM_PROVIDER: "anthropic-claude",
  ANTHROPIC_API_KEY: "sk-ant-shared",
  ANTHROPIC_MODEL_NAME: "claude-sonnet-4-5",
  OPENAI_API_KEY: "sk-openai-shared",
  OPENAI_MODEL_NAME: "gpt-4o",
  SUPERVISOR_LLM_PROVIDER: "openai",
  SUPERVISOR_OPENAI_MODEL_NAME: "gpt-4o-mini",
  AWS_ANTHROPIC_MODEL_NAME: "claude-opus-4-1",
};

function failure(run: () => unknown): SwitchboardError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SwitchboardError);
    return error as SwitchboardError;
  }
  throw new Error("expected a configuration error");
}

describe("per-agent LLM settings", () => {
  it("give each agent its own provider and model from one env file, the rest shared", () => {
    expect(readAgentLlmSettings(fleet, "supervisor")).toMatchObject({
      provider: "openai",
      modelName: "gpt-4o-mini",
      apiKey: "sk-openai-shared",
    });
    expect(readAgentLlmSettings(fleet, "aws")).toMatchObject({
      provider: "anthropic-claude",
      modelName: "claude-opus-4-1",
      apiKey: "sk-ant-shared",
    });
    expect(readAgentLlmSettings(fleet, "jira")).toMatchObject({
      provider: "anthropic-claude",
      modelName: "claude-sonnet-4-5",
    });
    // Without an agent, the shared settings alone.
    expect(readAgentLlmSettings(fleet)).toMatchObject({ provider: "anthropic-claude" });
  });

  it("name the agent's variables by its env prefix, and treat an empty one as unset", () => {
    expect(agentVariable("supervisor", "LLM_PROVIDER")).toBe("SUPERVISOR_LLM_PROVIDER");
    expect(agentVariable("my-agent", "OPENAI_MODEL_NAME")).toBe("MY_AGENT_OPENAI_MODEL_NAME");
    const resolved = agentLlmEnv(
      { ...fleet, JIRA_LLM_PROVIDER: " ", MY_AGENT_LLM_PROVIDER: "offline" },
      "jira",
    );
    expect(resolved.overrides).toEqual([]);
    expect(resolved.env.LLM_PROVIDER).toBe("anthropic-claude");
    expect(readAgentLlmSettings({ ...fleet, MY_AGENT_LLM_PROVIDER: "offline" }, "my-agent")).toEqual({
      provider: "offline",
      reason: "configured",
    });
    expect(agentLlmEnv(fleet, "supervisor").overrides).toEqual([
      "SUPERVISOR_LLM_PROVIDER",
      "SUPERVISOR_OPENAI_MODEL_NAME",
    ]);
  });

  it("let an agent use a key of its own, never the value in a message", () => {
    const env = { ...fleet, JIRA_LLM_PROVIDER: "google-gemini", JIRA_GOOGLE_API_KEY: "AIza-jira-only" };
    expect(readAgentLlmSettings(env, "jira")).toMatchObject({
      provider: "google-gemini",
      apiKey: "AIza-jira-only",
    });
    expect(() => readAgentLlmSettings(env, "github")).not.toThrow();
  });

  it("say which agent's variable is at fault when its override cannot be used", () => {
    const unknown = failure(() => readAgentLlmSettings({ ...fleet, JIRA_LLM_PROVIDER: "claude" }, "jira"));
    expect(unknown.message).toContain('Unknown LLM_PROVIDER "claude"');
    expect(unknown.message).toContain("The jira agent has its own JIRA_LLM_PROVIDER");

    const missing = failure(() =>
      readAgentLlmSettings(
        { ...fleet, SUPERVISOR_LLM_PROVIDER: "aws-bedrock", SUPERVISOR_AWS_REGION: "eu-west-1" },
        "supervisor",
      ),
    );
    expect(missing.message).toContain("LLM_PROVIDER=aws-bedrock needs AWS_BEDROCK_MODEL_ID");
    expect(missing.message).toContain(
      "own SUPERVISOR_LLM_PROVIDER, SUPERVISOR_OPENAI_MODEL_NAME, SUPERVISOR_AWS_REGION:",
    );
    expect(missing.message).toContain("SUPERVISOR_<NAME> sets any LLM variable for it alone");
    expect(missing.message).not.toContain("sk-");
  });

  it("never make one agent's override another shared variable (no prefix collisions)", () => {
    // e.g. AZURE_OPENAI_API_KEY is a variable of its own, not an agent "azure" overriding OPENAI_API_KEY:
    // no agent of the contract may turn one LLM variable into another.
    const agents = [
      "supervisor",
      "github",
      "weather",
      "backstage",
      "argocd",
      "confluence",
      "jira",
      "komodor",
      "pagerduty",
      "slack",
      "splunk",
      "webex",
      "aws",
      "petstore",
      "gitlab",
      "netutils",
      "victorops",
    ];
    const variables = new Set<string>(LLM_VARIABLES);
    for (const agent of agents)
      for (const variable of LLM_VARIABLES) expect(variables.has(agentVariable(agent, variable))).toBe(false);
  });
});
