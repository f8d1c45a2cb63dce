import { describe, expect, it } from "vitest";
import { traceDestination } from "./trace-destination.js";

describe("where a configuration's own settings send its traces", () => {
  it("reads the standard variables as the SDK does: the traces endpoint as is, else the base's /v1/traces", () => {
    expect(traceDestination({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://jaeger:4318/" })).toEqual({
      url: "http://jaeger:4318/v1/traces",
      headers: {},
    });
    expect(
      traceDestination({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://jaeger:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://tempo:4318/v1/traces",
        OTEL_EXPORTER_OTLP_HEADERS: "x-scope-orgid=ops, Authorization=Bearer%20abc,broken",
      }),
    ).toEqual({
      url: "http://tempo:4318/v1/traces",
      headers: { "x-scope-orgid": "ops", authorization: "Bearer abc" },
    });
  });

  it("takes CAIPE's Langfuse settings when no OTLP endpoint is set, and nothing when tracing is off", () => {
    expect(
      traceDestination({
        ENABLE_TRACING: "true",
        LANGFUSE_HOST: "https://langfuse.internal/",
        LANGFUSE_PUBLIC_KEY: "pk",
        LANGFUSE_SECRET_KEY: "sk",
      }),
    ).toEqual({
      url: "https://langfuse.internal/api/public/otel/v1/traces",
      headers: { authorization: `Basic ${Buffer.from("pk:sk").toString("base64")}` },
    });
    expect(traceDestination({})).toBeUndefined();
    expect(
      traceDestination({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://jaeger:4318", OTEL_SDK_DISABLED: "true" }),
    ).toBeUndefined();
    expect(
      traceDestination({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://jaeger:4318", OTEL_TRACES_EXPORTER: "none" }),
    ).toBeUndefined();
  });

  it("names a setting that is no http(s) URL, and keeps credentials out of the URL", () => {
    expect(() => traceDestination({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "grpc://collector:4317" })).toThrow(
      "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http(s) URL for the evaluation to pass the fleet's traces on.",
    );
    const destination = traceDestination({ OTEL_EXPORTER_OTLP_ENDPOINT: "https://u:p%40ss@collector" });
    expect(destination).toEqual({
      url: "https://collector/v1/traces",
      headers: { authorization: `Basic ${Buffer.from("u:p@ss").toString("base64")}` },
    });
  });
});
