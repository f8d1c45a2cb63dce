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
    // A host names the process for its agents; OTEL_SERVICE_NAME still wins.
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://x:4318" };
    expect(readTracingSettings(endpoint, "jira", "switchboard-host")).toMatchObject({
      serviceName: "switchboard-host",
    });
    expect(readTracingSettings(named, "jira", "switchboard-host")).toMatchObject({ serviceName: "jira-eu" });
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

  it("sends traces to Langfuse under CAIPE's settings when no OTEL endpoint is set", () => {
    const caipe = { ENABLE_TRACING: "true", LANGFUSE_PUBLIC_KEY: "pk-lf-1", LANGFUSE_SECRET_KEY: "sk-lf-2" };
    expect(
      readTracingSettings({ ...caipe, LANGFUSE_HOST: "https://langfuse.example.com/" }, "jira"),
    ).toMatchObject({
      enabled: true,
      langfuse: {
        url: "https://langfuse.example.com/api/public/otel/v1/traces",
        authorization: `Basic ${Buffer.from("pk-lf-1:sk-lf-2").toString("base64")}`,
      },
    });
    expect(readTracingSettings(caipe, "jira")).toMatchObject({
      langfuse: { url: "https://cloud.langfuse.com/api/public/otel/v1/traces" },
    });
    // The OTEL_* variables win; ENABLE_TRACING=false (CAIPE's default) asks for nothing.
    const otel = { ...caipe, OTEL_EXPORTER_OTLP_ENDPOINT: "http://jaeger:4318" };
    expect(readTracingSettings(otel, "jira")).not.toHaveProperty("langfuse");
    expect(readTracingSettings({ ...caipe, ENABLE_TRACING: "false" }, "jira")).toEqual({ enabled: false });
  });

  it("says why when ENABLE_TRACING=true has nowhere to send traces", () => {
    expect(readTracingSettings({ ENABLE_TRACING: "true" }, "jira")).toEqual({
      enabled: false,
      problem: expect.stringContaining("set LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY"),
    });
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
