import { describe, expect, it } from "vitest";
import { howToEnable, readSubagents } from "./subagents-env.js";

describe("readSubagents", () => {
  it("routes to every ENABLE_<AGENT>=true with its URL, as CAIPE's supervisor does", () => {
    const { agents, problems } = readSubagents({
      ENABLE_JIRA: "true",
      JIRA_AGENT_URL: "http://jira:8006/",
      ENABLE_MY_TOOL: "True",
      MY_TOOL_AGENT_HOST: "tool",
      MY_TOOL_AGENT_PORT: "9000",
      ENABLE_GITHUB: "false",
    });
    expect(agents.map(({ name, url }) => [name, url])).toEqual([
      ["jira", "http://jira:8006"],
      ["my_tool", "http://tool:9000"],
    ]);
    expect(problems).toEqual([]);
  });

  it("takes feature flags and CAIPE's other ENABLE_* settings for what they are, not for agents", () => {
    const { agents, problems } = readSubagents({
      ENABLE_AUTO_COMPRESSION: "true",
      ENABLE_TRACING: "true",
      ENABLE_FACT_EXTRACTION: "true",
      ENABLE_RAG: "true",
      ENABLE_CAIPE_UI: "true",
      ENABLE_USER_INFO_TOOL: "true",
    });
    expect(agents).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("says which setting is missing for an enabled agent", () => {
    expect(readSubagents({ ENABLE_PETSTORE: "true" }).problems).toEqual([
      "ENABLE_PETSTORE=true but neither PETSTORE_AGENT_URL nor PETSTORE_AGENT_HOST and PETSTORE_AGENT_PORT is set.",
    ]);
  });

  it("takes which agent serves which vendor, and who gets the user's own token, from configuration", () => {
    const { agents, problems } = readSubagents({
      ENABLE_GITHUB: "true",
      GITHUB_AGENT_URL: "http://github:8001",
      ENABLE_GHE: "true",
      GHE_AGENT_URL: "http://ghe:9001",
      GHE_AGENT_LINKED_VENDOR: "github",
      ENABLE_AWS: "true",
      AWS_AGENT_URL: "http://aws:8012",
      AUTH_FORWARD_USER_TOKEN_TO: "aws, petstore",
    });
    expect(agents.map(({ name, vendor, forwardUserToken }) => [name, vendor, forwardUserToken])).toEqual([
      ["aws", "aws", true],
      ["ghe", "github", false],
      ["github", "github", false],
    ]);
    expect(problems).toEqual(["AUTH_FORWARD_USER_TOKEN_TO names petstore, which is not an enabled agent."]);
  });
});

describe("howToEnable", () => {
  it("names the variables that add an agent the model asked for, when the name has any", () => {
    expect(howToEnable("aws")).toBe("To add one, set ENABLE_AWS=true and AWS_AGENT_URL.");
    expect(howToEnable("my-tool")).toBe("To add one, set ENABLE_MY_TOOL=true and MY_TOOL_AGENT_URL.");
    expect(howToEnable("!!!")).toBeUndefined();
  });
});
