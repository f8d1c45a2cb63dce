import { describe, expect, it } from "vitest";
import { checkpointConfig, configString, metadataMatches, requiredString } from "./config.js";

describe("config", () => {
  it("reads a configurable string, and refuses a value of another type", () => {
    expect(configString({ configurable: { thread_id: "t" } }, "thread_id")).toBe("t");
    expect(configString({}, "thread_id")).toBeUndefined();
    expect(() => configString({ configurable: { thread_id: 7 } }, "thread_id")).toThrow(
      "Invalid configurable.thread_id: expected a string",
    );
    expect(() => requiredString({ configurable: {} }, "checkpoint_id")).toThrow(
      "Invalid configurable.checkpoint_id: expected a string",
    );
  });

  it("names a stored checkpoint by thread, namespace and id", () => {
    expect(checkpointConfig("t", "", "c1")).toEqual({
      configurable: { thread_id: "t", checkpoint_ns: "", checkpoint_id: "c1" },
    });
  });

  it("matches metadata holding every filtered key exactly", () => {
    const metadata = { source: "loop" as const, step: 2, parents: {} };
    expect(metadataMatches(metadata, { source: "loop", step: 2 })).toBe(true);
    expect(metadataMatches(metadata, { source: "input" })).toBe(false);
    expect(metadataMatches(undefined, { source: "loop" })).toBe(false);
  });
});
