import { describe, expect, it } from "vitest";
import { isFeatureFlag, unusedCaipeSettings } from "./caipe-settings.js";

describe("CAIPE settings Switchboard does not use", () => {
  it("are named at start-up, one line per group, with why", () => {
    const lines = unusedCaipeSettings({
      ENABLE_GRAPH_RAG: "true",
      RAG_SERVER_PORT: "9446",
      KEYCLOAK_CLIENT_SECRET: "caipe-platform-dev-secret",
      KEYCLOAK_REALM: "caipe",
      ATLASSIAN_TOKEN: "read by the Jira agent",
    });
    expect(lines).toEqual([
      expect.stringMatching(
        /^ENABLE_GRAPH_RAG=true, RAG_SERVER_PORT=9446: they configure CAIPE's RAG server and ingestors; Switchboard's own knowledge base \(tools\/rag-server\)/,
      ),
      expect.stringMatching(/^KEYCLOAK_CLIENT_SECRET, KEYCLOAK_REALM=caipe: Switchboard needs no Keycloak/),
    ]);
    // A secret is named, never shown.
    expect(lines.join("\n")).not.toContain("caipe-platform-dev-secret");
  });

  it("take ENABLE_RAG and RAG_SERVER_URL: the supervisor uses a CAIPE RAG server's tools", () => {
    expect(unusedCaipeSettings({ ENABLE_RAG: "true", RAG_SERVER_URL: "http://rag-server:9446" })).toEqual([]);
  });

  it("say nothing of what asks for nothing: flags off, blanks, A2A over HTTP", () => {
    expect(
      unusedCaipeSettings({
        ENABLE_RAG: "false",
        ENABLE_CAIPE_UI: " ",
        A2A_TRANSPORT: "p2p",
        SLIM_ENDPOINT: "",
      }),
    ).toEqual([]);
    expect(unusedCaipeSettings({ A2A_TRANSPORT: "slim" })).toEqual([
      expect.stringContaining("the SLIM transport is not supported; ignored."),
    ]);
  });

  it("honour CAIPE's dynamic agents: its app-config file and its switch are not called unused", () => {
    expect(
      unusedCaipeSettings({
        APP_CONFIG_FILE: "./config/app-config.local.yaml",
        DYNAMIC_AGENTS_ENABLED: "true",
        DYNAMIC_AGENTS_URL: "http://dynamic-agents:8100",
      }),
    ).toEqual([]);
  });

  it("tell feature flags from agents", () => {
    expect(isFeatureFlag("ENABLE_TRACING")).toBe(true);
    expect(isFeatureFlag("ENABLE_RAG")).toBe(true);
    expect(isFeatureFlag("ENABLE_JIRA")).toBe(false);
    expect(isFeatureFlag("ENABLE_MY_TOOL")).toBe(false);
  });

  it("prints a URL setting with its password masked, before the value is cut", () => {
    const lines = unusedCaipeSettings({
      LANGGRAPH_STORE_REDIS_URL: "redis://:a-long-redis-password-hunter2@cache.internal:6379/0",
    });
    expect(lines.join("\n")).toContain("LANGGRAPH_STORE_REDIS_URL=redis://:****@cache.internal:6379/0");
    expect(lines.join("\n")).not.toMatch(/password|hunter2/);
  });
});
