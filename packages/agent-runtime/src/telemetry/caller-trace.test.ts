import { context, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { callerTraceContext } from "./caller-trace.js";

const caipeTraceId = "6320ce5f3d6942779711ae01d5d7ccfc";

describe("callerTraceContext", () => {
  it("joins the trace CAIPE names in metadata.trace_id", () => {
    const joined = callerTraceContext(ROOT_CONTEXT, {}, { trace_id: caipeTraceId, context_id: "c" });
    const parent = trace.getSpanContext(joined);
    expect(parent).toMatchObject({ traceId: caipeTraceId, isRemote: true });
    expect(parent?.spanId).toMatch(/^[0-9a-f]{16}$/);
  });

  it("takes a dashed UUID as the same 32 hex digits", () => {
    const joined = callerTraceContext(ROOT_CONTEXT, undefined, {
      trace_id: "6320CE5F-3D69-4277-9711-AE01D5D7CCFC",
    });
    expect(trace.getSpanContext(joined)?.traceId).toBe(caipeTraceId);
  });

  it("leaves a request that carries traceparent in the trace it continues", () => {
    const active = context.active();
    expect(callerTraceContext(active, { traceparent: "00-…" }, { trace_id: caipeTraceId })).toBe(active);
  });

  it("ignores anything that is not a trace id", () => {
    for (const trace_id of [undefined, 42, "abc", "0".repeat(32), "g".repeat(32)]) {
      expect(callerTraceContext(ROOT_CONTEXT, {}, { trace_id })).toBe(ROOT_CONTEXT);
    }
    expect(callerTraceContext(ROOT_CONTEXT, {}, undefined)).toBe(ROOT_CONTEXT);
  });
});
