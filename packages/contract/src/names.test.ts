import { describe, expect, it } from "vitest";
import {
  agentNameFromPackage,
  agentUrlVariableFor,
  collectionsFor,
  enableVariableFor,
  envPrefixFor,
  hostEnabledVariableFor,
  hostUrlVariableFor,
  sameAgentName,
  serviceNameFor,
} from "./names.js";

describe("the names derived from an agent's name", () => {
  it("takes the agent name from its package", () => {
    expect(agentNameFromPackage("@switchboard/agent-jira")).toBe("jira");
    expect(agentNameFromPackage("@switchboard/supervisor")).toBe("supervisor");
    expect(agentNameFromPackage("agent-status-page")).toBe("status-page");
    expect(agentNameFromPackage("@acme/agent-agent-x")).toBe("agent-x");
  });

  it("names the supervisor's variables and the compose service as CAIPE did", () => {
    expect(enableVariableFor("status-page")).toBe("ENABLE_STATUS_PAGE");
    expect(envPrefixFor("my-tool")).toBe("MY_TOOL");
    expect(agentUrlVariableFor("jira")).toBe("JIRA_AGENT_URL");
    expect(serviceNameFor("jira")).toBe("agent-jira");
    expect(serviceNameFor("supervisor")).toBe("supervisor");
  });

  it("names a host of configured agents by itself, and its URL variable as CAIPE does", () => {
    expect(serviceNameFor("dynamic-agents", "host")).toBe("dynamic-agents");
    expect(serviceNameFor("dynamic-agents")).toBe("agent-dynamic-agents");
    expect(hostUrlVariableFor("dynamic-agents")).toBe("DYNAMIC_AGENTS_URL");
    expect(hostEnabledVariableFor("dynamic-agents")).toBe("DYNAMIC_AGENTS_ENABLED");
  });

  it("matches a card's display name to its variables leniently, and only the same name", () => {
    expect(enableVariableFor("Hello World Agent")).toBe("ENABLE_HELLO_WORLD_AGENT");
    expect(agentUrlVariableFor(" hello-world agent ")).toBe("HELLO_WORLD_AGENT_AGENT_URL");
    expect(sameAgentName("Hello World Agent", "hello_world_agent")).toBe(true);
    expect(sameAgentName("Jira", "jira")).toBe(true);
    expect(sameAgentName("my-tool", "MY_TOOL")).toBe(true);
    expect(sameAgentName("Hello World Agent", "hello_world")).toBe(false);
    expect(sameAgentName("jira", "github")).toBe(false);
    expect(envPrefixFor("!!!")).toBe("");
  });

  it("gives each agent its own collections", () => {
    expect(collectionsFor("jira")).toEqual({
      checkpoints: "checkpoints_jira",
      checkpointWrites: "checkpoint_writes_jira",
      checkpointMessages: "checkpoint_messages_jira",
      tasks: "tasks_jira",
      locks: "locks_jira",
      pushConfigs: "push_configs_jira",
      audit: "audit_jira",
      linkedTokens: "linked_tokens_jira",
    });
  });
});
