import { describe, expect, it } from "vitest";
import { AuthenticatedCaller } from "../src/auth/caller.js";
import { readTracingSettings } from "../src/telemetry/tracing-settings.js";
import { conversationAttribute } from "../src/telemetry/turn-span.js";

describe("tracing settings", () => {
  it("is off without an OTLP endpoint, so the SDK is never loaded", () => {
    expect(readTracingSettings({}, "jira")).toEqual({ enabled: false });
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: " " }, "jira")).toEqual({ enabled: false });
  });

  it("is on with an OTLP endpoint, named switchboard-<agent> unless OTEL_SERVICE_NAME says otherwise", () => {
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://jaeger:4318" }, "jira")).toEqual({
      enabled: true,
      serviceName: "switchboard-jira",
      captureContent: false,
    });
    const named = {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://x:4318/v1/traces",
      OTEL_SERVICE_NAME: "jira-eu",
    };
    expect(readTracingSettings(named, "jira")).toMatchObject({ enabled: true, serviceName: "jira-eu" });
  });

  it("follows OTEL_TRACES_EXPORTER: on for an exporter (the console one needs no endpoint), off for none", () => {
    expect(readTracingSettings({ OTEL_TRACES_EXPORTER: "console" }, "aws")).toMatchObject({ enabled: true });
    const none = { OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://jaeger:4318" };
    expect(readTracingSettings(none, "aws")).toEqual({ enabled: false });
  });

  it("is off with OTEL_SDK_DISABLED=true whatever else is set", () => {
    const env = { OTEL_SDK_DISABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: "http://jaeger:4318" };
    expect(readTracingSettings(env, "jira")).toEqual({ enabled: false });
  });

  it("puts prompt and completion text on spans only when explicitly asked", () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://jaeger:4318",
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true",
    };
    expect(readTracingSettings(env, "jira")).toMatchObject({ captureContent: true });
  });
});

describe("the conversation id on spans", () => {
  it("is the contextId for an anonymous caller and a hash of it for an authenticated one", () => {
    expect(conversationAttribute("ctx-1", undefined)).toBe("ctx-1");
    const hashed = conversationAttribute("ctx-1", new AuthenticatedCaller("alice", "secret-token"));
    expect(hashed).toMatch(/^[0-9a-f]{16}$/);
    expect(hashed).not.toContain("ctx-1");
  });
});
