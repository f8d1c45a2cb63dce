import { describe, expect, it } from "vitest";
import { readSubagents } from "./subagents-env.js";

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
});
