import { describe, expect, it } from "vitest";
import { readRuntimeSettings } from "../src/env.js";

describe("context budget settings", () => {
  it("is on by default, well below a 128k window", () => {
    expect(readRuntimeSettings({}, 8000).context).toEqual({ maxTokens: 64_000, keepMessages: 10 });
  });

  it("reads CAIPE's names; empty values are unset", () => {
    const env = { MAX_CONTEXT_TOKENS: "100000", MIN_MESSAGES_TO_KEEP: "4", ENABLE_AUTO_COMPRESSION: "" };
    expect(readRuntimeSettings(env, 8000).context).toEqual({ maxTokens: 100_000, keepMessages: 4 });
  });

  it("is off with ENABLE_AUTO_COMPRESSION=false", () => {
    expect(readRuntimeSettings({ ENABLE_AUTO_COMPRESSION: "false" }, 8000).context).toBeUndefined();
    expect(readRuntimeSettings({ ENABLE_AUTO_COMPRESSION: "TRUE" }, 8000).context).toBeDefined();
  });

  it("names the variable that is wrong", () => {
    expect(() => readRuntimeSettings({ MAX_CONTEXT_TOKENS: "lots" }, 8000)).toThrow(/MAX_CONTEXT_TOKENS/);
    expect(() => readRuntimeSettings({ MIN_MESSAGES_TO_KEEP: "0" }, 8000)).toThrow(/MIN_MESSAGES_TO_KEEP/);
    expect(() => readRuntimeSettings({ ENABLE_AUTO_COMPRESSION: "maybe" }, 8000)).toThrow(
      /ENABLE_AUTO_COMPRESSION/,
    );
  });
});
