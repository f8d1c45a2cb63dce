import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { api, tracing } from "@opentelemetry/sdk-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OtlpReceiver, startOtlpReceiver } from "./index.js";

describe("OTLP receiver", () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(() => receiver.close());

  it("receives what the official OTLP/HTTP JSON exporter sends, parent links and attributes intact", async () => {
    const provider = new tracing.BasicTracerProvider({
      spanProcessors: [
        new tracing.SimpleSpanProcessor(new OTLPTraceExporter({ url: `${receiver.url}/v1/traces` })),
      ],
    });
    const tracer = provider.getTracer("receiver-test");
    const parent = tracer.startSpan("parent", { attributes: { "test.count": 3, "test.ok": true } });
    const child = tracer.startSpan("child", {}, api.trace.setSpan(api.context.active(), parent));
    child.end();
    parent.end();
    await provider.forceFlush();
    const spans = await receiver.waitFor((all) => all.length >= 2);
    const [got, gotChild] = [spans.find((s) => s.name === "parent"), spans.find((s) => s.name === "child")];
    expect(got?.attributes).toMatchObject({ "test.count": 3, "test.ok": true });
    expect(gotChild?.traceId).toBe(got?.traceId);
    expect(gotChild?.parentSpanId).toBe(got?.spanId);
    expect(got?.parentSpanId).toBeUndefined();
    await provider.shutdown();
  });

  it("receives log records on /v1/logs, body, severity and attributes decoded", async () => {
    const response = await fetch(`${receiver.url}/v1/logs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        resourceLogs: [
          {
            resource: { attributes: [{ key: "service.name", value: { stringValue: "svc" } }] },
            scopeLogs: [
              {
                scope: { name: "switchboard.audit" },
                logRecords: [
                  {
                    severityNumber: 9,
                    severityText: "INFO",
                    body: { stringValue: "denied" },
                    attributes: [{ key: "audit.seq", value: { intValue: "4" } }],
                    traceId: "ab",
                  },
                ],
              },
            ],
          },
        ],
      }),
    });
    expect(response.status).toBe(200);
    const [record] = await receiver.waitForLogs((all) => all.length >= 1);
    expect(record).toEqual({
      service: "svc",
      scope: "switchboard.audit",
      severityNumber: 9,
      severityText: "INFO",
      body: "denied",
      attributes: { "audit.seq": 4 },
      traceId: "ab",
    });
  });

  it("turns protobuf away with the setting that fixes it", async () => {
    const response = await fetch(`${receiver.url}/v1/traces`, {
      method: "POST",
      headers: { "content-type": "application/x-protobuf" },
      body: new Uint8Array([1]),
    });
    expect(response.status).toBe(415);
    expect(await response.text()).toContain("OTEL_EXPORTER_OTLP_PROTOCOL=http/json");
  });
});
