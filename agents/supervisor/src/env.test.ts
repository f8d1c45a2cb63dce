import { describe, expect, it } from "vitest";
import { readConfiguredAgentsSettings } from "./env.js";

describe("readConfiguredAgentsSettings", () => {
  it("is off without DYNAMIC_AGENTS_URL, and polls every 10 s by default when set", () => {
    expect(readConfiguredAgentsSettings({})).toBeUndefined();
    expect(readConfiguredAgentsSettings({ DYNAMIC_AGENTS_URL: "http://dynamic-agents:8100/" })).toEqual({
      url: "http://dynamic-agents:8100",
      pollMs: 10_000,
    });
    expect(
      readConfiguredAgentsSettings({
        DYNAMIC_AGENTS_URL: "https://agents.example.com/dynamic",
        DYNAMIC_AGENTS_POLL_SECONDS: "0.5",
      }),
    ).toEqual({ url: "https://agents.example.com/dynamic", pollMs: 500 });
  });

  it("names the setting and the fix for a value it cannot use", () => {
    expect(() => readConfiguredAgentsSettings({ DYNAMIC_AGENTS_URL: "dynamic-agents:8100" })).toThrow(
      "DYNAMIC_AGENTS_URL: use the dynamic-agents host's base URL, e.g. http://dynamic-agents:8100",
    );
    expect(() => readConfiguredAgentsSettings({ DYNAMIC_AGENTS_URL: "file:///etc/agents" })).toThrow(
      "DYNAMIC_AGENTS_URL",
    );
    for (const seconds of ["0", "-1", "soon"]) {
      expect(() =>
        readConfiguredAgentsSettings({
          DYNAMIC_AGENTS_URL: "http://dynamic-agents:8100",
          DYNAMIC_AGENTS_POLL_SECONDS: seconds,
        }),
      ).toThrow("DYNAMIC_AGENTS_POLL_SECONDS: use a number of seconds");
    }
  });

  it("refuses credentials in the URL, which log lines name, without repeating them", () => {
    let message = "";
    try {
      readConfiguredAgentsSettings({ DYNAMIC_AGENTS_URL: "http://admin:hunter2@dynamic-agents:8100" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("DYNAMIC_AGENTS_URL: put no user name or password in it");
    expect(message).not.toContain("hunter2");
  });
});
