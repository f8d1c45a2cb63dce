import { describe, expect, it } from "vitest";
import { readStoreChoice } from "./settings.js";

describe("LANGGRAPH_STORE_TYPE (CAIPE's values)", () => {
  it("keeps memory on PostgreSQL with postgres, the DSN read in CAIPE's order, then the checkpoints'", () => {
    const dsns = {
      LANGGRAPH_STORE_POSTGRES_DSN: "postgresql://store@db/a",
      POSTGRES_DSN: "postgresql://shared@db/b",
      LANGGRAPH_CHECKPOINT_POSTGRES_DSN: "postgresql://checkpoints@db/c",
    };
    expect(readStoreChoice({ LANGGRAPH_STORE_TYPE: "Postgres", ...dsns })).toEqual({
      backend: "postgres",
      dsn: "postgresql://store@db/a",
      dsnVariable: "LANGGRAPH_STORE_POSTGRES_DSN",
    });
    const { LANGGRAPH_STORE_POSTGRES_DSN: _, ...rest } = dsns;
    expect(readStoreChoice({ LANGGRAPH_STORE_TYPE: "postgres", ...rest, POSTGRES_DSN: " " })).toMatchObject({
      dsnVariable: "LANGGRAPH_CHECKPOINT_POSTGRES_DSN",
    });
  });

  it("refuses postgres without a DSN, naming the setting to add", () => {
    expect(() => readStoreChoice({ LANGGRAPH_STORE_TYPE: "postgres" })).toThrow(
      /LANGGRAPH_STORE_TYPE=postgres needs a PostgreSQL DSN: set LANGGRAPH_STORE_POSTGRES_DSN/,
    );
  });

  it("accepts redis and ignores it; leaves the rest to openStore", () => {
    expect(readStoreChoice({ LANGGRAPH_STORE_TYPE: "redis" })).toEqual({
      backend: "openStore",
      ignoredRedis: true,
    });
    expect(readStoreChoice({ LANGGRAPH_STORE_TYPE: "MongoDB" })).toEqual({
      backend: "openStore",
      ignoredRedis: false,
      type: "mongodb",
    });
    expect(readStoreChoice({})).toEqual({ backend: "openStore", ignoredRedis: false });
  });

  it("names the setting and its values for any other", () => {
    expect(() => readStoreChoice({ LANGGRAPH_STORE_TYPE: "cassandra" })).toThrow(
      'LANGGRAPH_STORE_TYPE: "cassandra" is not a long-term store: use mongodb, postgres, memory or none',
    );
  });
});
