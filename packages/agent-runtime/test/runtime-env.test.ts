import { describe, expect, it } from "vitest";
import { readRuntimeSettings } from "../src/env.js";

const jira = { name: "jira", port: 8006 };

describe("the serving port", () => {
  it("is PORT, else the agent package's declared port", () => {
    expect(readRuntimeSettings({ PORT: "9100" }, jira).port).toBe(9100);
    expect(readRuntimeSettings({}, jira).port).toBe(8006);
  });

  it("says where to declare one when there is none", () => {
    expect(() => readRuntimeSettings({}, { name: "scratch" })).toThrow(
      'The scratch agent has no port: set PORT, or declare "switchboard": { "port": <port> } in its package.json.',
    );
  });
});

describe("context budget settings", () => {
  it("is on by default, well below a 128k window", () => {
    expect(readRuntimeSettings({}, jira).context).toEqual({ maxTokens: 64_000, keepMessages: 10 });
  });

  it("reads CAIPE's names; empty values are unset", () => {
    const env = { MAX_CONTEXT_TOKENS: "100000", MIN_MESSAGES_TO_KEEP: "4", ENABLE_AUTO_COMPRESSION: "" };
    expect(readRuntimeSettings(env, jira).context).toEqual({ maxTokens: 100_000, keepMessages: 4 });
  });

  it("is off with ENABLE_AUTO_COMPRESSION=false", () => {
    expect(readRuntimeSettings({ ENABLE_AUTO_COMPRESSION: "false" }, jira).context).toBeUndefined();
    expect(readRuntimeSettings({ ENABLE_AUTO_COMPRESSION: "TRUE" }, jira).context).toBeDefined();
  });

  it("names the variable that is wrong", () => {
    expect(() => readRuntimeSettings({ MAX_CONTEXT_TOKENS: "lots" }, jira)).toThrow(/MAX_CONTEXT_TOKENS/);
    expect(() => readRuntimeSettings({ MIN_MESSAGES_TO_KEEP: "0" }, jira)).toThrow(/MIN_MESSAGES_TO_KEEP/);
    expect(() => readRuntimeSettings({ ENABLE_AUTO_COMPRESSION: "maybe" }, jira)).toThrow(
      /ENABLE_AUTO_COMPRESSION/,
    );
  });
});

describe("the gRPC port", () => {
  it("is PORT + 1000 by default (CAIPE's 8000s → 9000s), a free one with PORT=0", () => {
    expect(readRuntimeSettings({}, jira).grpc).toEqual({ port: 9006 });
    expect(readRuntimeSettings({ PORT: "0" }, jira).grpc).toEqual({ port: 0 });
  });

  it("is A2A_GRPC_PORT when set, with the address the card names; off serves none", () => {
    expect(
      readRuntimeSettings({ A2A_GRPC_PORT: "50051", A2A_GRPC_PUBLIC_ADDRESS: "jira.example.com:443" }, jira)
        .grpc,
    ).toEqual({ port: 50051, publicAddress: "jira.example.com:443" });
    expect(
      readRuntimeSettings({ A2A_GRPC_PUBLIC_ADDRESS: "grpc://jira:9006" }, jira).grpc?.publicAddress,
    ).toBe("grpc://jira:9006");
    expect(
      readRuntimeSettings({ A2A_GRPC_PUBLIC_ADDRESS: "https://jira.example.com:443" }, jira).grpc
        ?.publicAddress,
    ).toBe("https://jira.example.com:443");
    expect(readRuntimeSettings({ A2A_GRPC_PORT: "off" }, jira).grpc).toBeUndefined();
  });

  it("says what to set when the port cannot be used", () => {
    expect(() => readRuntimeSettings({ PORT: "65000" }, jira)).toThrow(
      /set A2A_GRPC_PORT, or A2A_GRPC_PORT=off/,
    );
    expect(() => readRuntimeSettings({ A2A_GRPC_PORT: "8006" }, jira)).toThrow(
      /gRPC needs a port of its own/,
    );
    expect(() => readRuntimeSettings({ A2A_GRPC_PORT: "yes" }, jira)).toThrow(/A2A_GRPC_PORT/);
    expect(() =>
      readRuntimeSettings({ A2A_GRPC_PUBLIC_ADDRESS: "https://jira.example.com/x" }, jira),
    ).toThrow(/A2A_GRPC_PUBLIC_ADDRESS/);
  });
});
