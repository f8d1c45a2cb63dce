import { describe, expect, it } from "vitest";
import { buildRequest } from "./client.js";
import { legacyContextId } from "./legacy-context.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("legacyContextId", () => {
  it("passes a UUID through verbatim", () => {
    expect(legacyContextId("5B1F0C1E-9D7E-4C38-A0A4-6F0E8D1F2A3B")).toBe(
      "5B1F0C1E-9D7E-4C38-A0A4-6F0E8D1F2A3B",
    );
  });

  it("maps any other id to one stable UUID, different per conversation", () => {
    const first = legacyContextId("ctx-conversation-1");
    expect(first).toMatch(UUID);
    expect(legacyContextId("ctx-conversation-1")).toBe(first);
    expect(legacyContextId("ctx-conversation-2")).not.toBe(first);
    expect(legacyContextId("")).toMatch(UUID);
  });
});

describe("buildRequest for an A2A 0.3 agent (CAIPE's)", () => {
  it("sends the conversation as a UUID both as contextId and metadata.context_id", () => {
    const request = buildRequest({ text: "hi", contextId: "ctx-abc", metadata: { trace_id: "t" } }, "0.3");
    expect(request.message?.contextId).toMatch(UUID);
    expect(request.message?.metadata).toEqual({ trace_id: "t", context_id: request.message?.contextId });
  });

  it("sends a 1.0 agent the contextId verbatim", () => {
    const request = buildRequest({ text: "hi", contextId: "ctx-abc" }, "1.0");
    expect(request.message?.contextId).toBe("ctx-abc");
    expect(request.message?.metadata).toEqual({ context_id: "ctx-abc" });
  });
});
