import { AIMessage, AIMessageChunk, HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { documentKey, messageFor, messageKey, plainCopyKey, referencesIn, restoreRefs } from "./refs.js";

describe("message keys", () => {
  it("keys a message by id and content, so an edited message gets a new key", () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    expect(messageKey("m1", bytes("a"))).toMatch(/^m1:[0-9a-f]{16}$/);
    expect(messageKey("m1", bytes("a"))).toBe(messageKey("m1", bytes("a")));
    expect(messageKey("m1", bytes("b"))).not.toBe(messageKey("m1", bytes("a")));
  });

  it("finds a plain copy's body in its chunk's document, and turns the chunk into the plain message", () => {
    const key = plainCopyKey("m1:abc");
    expect(key).not.toBe("m1:abc");
    expect(documentKey(key)).toBe("m1:abc");
    expect(documentKey("m1:abc")).toBe("m1:abc");
    const chunk = new AIMessageChunk({ id: "m1", content: "streamed" });
    const copy = messageFor(key, chunk);
    expect(copy).toBeInstanceOf(AIMessage);
    expect(copy).not.toBeInstanceOf(AIMessageChunk);
    expect(copy.content).toBe("streamed");
    expect(messageFor("m1:abc", chunk)).toBe(chunk);
  });
});

describe("referencesIn", () => {
  it("finds every message key and list reference in a stored value's text, escapes and all", () => {
    const text = JSON.stringify({
      messages: [
        { __sb_msg: 'm1:"quoted"' },
        { __sb_chan: ["messages", "c1"], __sb_more: [{ __sb_msg: "m2:x" }] },
      ],
    });
    expect(referencesIn(text)).toEqual({ messages: ['m1:"quoted"', "m2:x"], lists: [["messages", "c1"]] });
    expect(referencesIn('{"plain":[1,2]}')).toEqual({ messages: [], lists: [] });
  });
});

describe("restoreRefs", () => {
  it("puts messages and stored lists back, with the items a list added after them", () => {
    const hello = new HumanMessage({ id: "m1", content: "hello" });
    const added = new AIMessage({ id: "m2", content: "hi" });
    const stored = [hello];
    const value = {
      send: { args: { messages: { __sb_chan: ["messages", "c1"], __sb_more: [{ __sb_msg: "m2:x" }] } } },
      last: { __sb_msg: "m1:x" },
      plain: [1, "two"],
    };
    const messages: Record<string, AIMessage | HumanMessage> = { "m1:x": hello, "m2:x": added };
    const restored = restoreRefs(
      value,
      (key) => messages[key] as HumanMessage,
      (channel, checkpoint) => (channel === "messages" && checkpoint === "c1" ? stored : undefined),
    );
    expect(restored).toEqual({
      send: { args: { messages: [hello, added] } },
      last: hello,
      plain: [1, "two"],
    });
    expect((restored as { last: unknown }).last).toBe(hello);
  });
});
