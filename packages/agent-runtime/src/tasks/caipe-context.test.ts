import { type Message, Role, type SendMessageRequest } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { withCaipeContextId } from "./caipe-context.js";

function request(message: Partial<Message>): SendMessageRequest {
  return {
    tenant: "",
    message: {
      messageId: "m-1",
      contextId: "",
      taskId: "",
      role: Role.ROLE_USER,
      parts: [],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
      ...message,
    },
    configuration: undefined,
    metadata: undefined,
  };
}

describe("withCaipeContextId", () => {
  it("takes CAIPE's metadata.context_id as the conversation when the message names none", () => {
    const params = request({
      metadata: { context_id: "5b1f0c1e-9d7e-4c38-a0a4-6f0e8d1f2a3b", trace_id: "ab" },
    });
    expect(withCaipeContextId(params).message?.contextId).toBe("5b1f0c1e-9d7e-4c38-a0a4-6f0e8d1f2a3b");
    // The caller's request object is left as it was.
    expect(params.message?.contextId).toBe("");
  });

  it("never overrides an explicit contextId", () => {
    const params = request({ contextId: "ctx-explicit", metadata: { context_id: "ctx-metadata" } });
    expect(withCaipeContextId(params)).toBe(params);
  });

  it("leaves a message on a task in that task's context", () => {
    const params = request({ taskId: "task-1", metadata: { context_id: "ctx-metadata" } });
    expect(withCaipeContextId(params)).toBe(params);
  });

  it("ignores a context_id that is not a non-empty string", () => {
    for (const context_id of [undefined, "", "  ", 42, { id: "x" }]) {
      const params = request({ metadata: { context_id } });
      expect(withCaipeContextId(params)).toBe(params);
    }
    const bare = request({});
    expect(withCaipeContextId(bare)).toBe(bare);
  });
});
