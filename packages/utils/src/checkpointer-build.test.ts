import { describe, expect, it } from "vitest";
import { resolveCheckpointer } from "./checkpointer-build.js";

const uri = "mongodb://127.0.0.1:27017";

describe("resolveCheckpointer", () => {
  it("names the same checkpointer for the same settings, however they are spelled", () => {
    const a = resolveCheckpointer({ agentName: "jira", env: { MONGODB_URI: uri } });
    const b = resolveCheckpointer({ agentName: "jira", env: { LANGGRAPH_CHECKPOINT_MONGODB_URI: uri } });
    const c = resolveCheckpointer({
      agentName: "jira",
      env: { MONGODB_URI: uri, LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: "switchboard" },
    });
    expect(b.key).toBe(a.key);
    expect(c.key).toBe(a.key);
  });

  it("takes CAIPE's MONGODB_DATABASE for the database, after LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME", () => {
    const caipe = resolveCheckpointer({
      agentName: "jira",
      env: { MONGODB_URI: uri, MONGODB_DATABASE: "caipe" },
    });
    expect(caipe).toMatchObject({ dbName: "caipe" });
    const both = {
      MONGODB_URI: uri,
      MONGODB_DATABASE: "caipe",
      LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: "ours",
    };
    expect(resolveCheckpointer({ agentName: "jira", env: both })).toMatchObject({ dbName: "ours" });
  });

  it("tells apart another agent, database, collection pair or retention", () => {
    const base = resolveCheckpointer({ agentName: "jira", env: { MONGODB_URI: uri } }).key;
    const others = [
      { agentName: "github", env: { MONGODB_URI: uri } },
      { agentName: "jira", env: { MONGODB_URI: uri, LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: "other" } },
      { agentName: "jira", env: { MONGODB_URI: `${uri}/elsewhere` } },
      {
        agentName: "jira",
        env: {
          MONGODB_URI: uri,
          LANGGRAPH_CHECKPOINT_MONGODB_COLLECTION: "legacy",
          LANGGRAPH_CHECKPOINT_MONGODB_WRITES_COLLECTION: "legacy_writes",
        },
      },
      { agentName: "jira", env: { MONGODB_URI: uri, LANGGRAPH_CHECKPOINT_TTL_MINUTES: "60" } },
      { agentName: "jira", env: {} },
    ];
    const keys = others.map((options) => resolveCheckpointer(options).key);
    expect(new Set([base, ...keys]).size).toBe(others.length + 1);
  });

  it("resolves the database, collections and retention the contract names", () => {
    const resolved = resolveCheckpointer({
      agentName: "jira",
      env: { MONGODB_URI: `${uri}/fromuri`, LANGGRAPH_CHECKPOINT_TTL_MINUTES: "1.5" },
    });
    expect(resolved).toMatchObject({
      backend: "mongodb",
      agent: "jira",
      dbName: "fromuri",
      collections: {
        checkpoints: "checkpoints_jira",
        writes: "checkpoint_writes_jira",
        messages: "checkpoint_messages_jira",
      },
      ttlSeconds: 90,
    });
    expect(resolveCheckpointer({ agentName: "jira", env: {} })).toMatchObject({
      backend: "memory",
      reason: "no-uri",
    });
  });

  it("refuses settings that name only one of the two explicit collections", () => {
    expect(() =>
      resolveCheckpointer({
        agentName: "jira",
        env: { MONGODB_URI: uri, LANGGRAPH_CHECKPOINT_MONGODB_COLLECTION: "only" },
      }),
    ).toThrow(/Set both LANGGRAPH_CHECKPOINT_MONGODB_COLLECTION/);
  });
});
