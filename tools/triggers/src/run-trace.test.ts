import { describe, expect, it } from "vitest";
import { runTraceIds, traceparentOf } from "./run-trace.js";

describe("a run's trace", () => {
  const runId = "1b8a91b3-60c6-48d0-85e8-993caa77f8bc";

  it("is the run id's hex, and its root span's id follows from the run id alone (any replica names it)", () => {
    const ids = runTraceIds(runId);
    expect(ids.traceId).toBe("1b8a91b360c648d085e8993caa77f8bc");
    expect(ids.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(runTraceIds(runId)).toEqual(ids);
    expect(runTraceIds("2b8a91b3-60c6-48d0-85e8-993caa77f8bc").spanId).not.toBe(ids.spanId);
    expect(traceparentOf(runId)).toBe(`00-${ids.traceId}-${ids.spanId}-01`);
  });

  it("is a valid trace id even for a run id that is not a UUID", () => {
    for (const odd of ["tick:2026-11-29T09:00:00.000Z", "00000000-0000-0000-0000-000000000000", ""])
      expect(traceparentOf(odd)).toMatch(/^00-(?!0{32})[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  });
});
