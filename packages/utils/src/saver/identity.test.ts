import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { StoredIdentities } from "./identity.js";

describe("StoredIdentities", () => {
  it("knows a message it stored in this conversation, until its id changes", () => {
    const identities = new StoredIdentities();
    const message = new HumanMessage({ id: "m1", content: "hi" });
    identities.rememberMessage(message, "t", "m1:abc");
    expect(identities.messageKey(message, "t")).toBe("m1:abc");
    expect(identities.messageKey(message, "other-thread")).toBeUndefined();
    expect(identities.messageKey(new HumanMessage({ id: "m1", content: "hi" }), "t")).toBeUndefined();
    message.id = "m1-edited";
    expect(identities.messageKey(message, "t")).toBeUndefined();
  });

  it("knows where a list was stored, in its conversation and namespace, until its length changes", () => {
    const identities = new StoredIdentities();
    const list = [1, 2];
    identities.rememberList(list, { thread: "t", ns: "", checkpoint: "c1", channel: "messages" });
    expect(identities.listHome(list, "t", "")).toEqual({
      thread: "t",
      ns: "",
      checkpoint: "c1",
      channel: "messages",
      length: 2,
    });
    expect(identities.listHome(list, "t", "sub")).toBeUndefined();
    list.push(3);
    expect(identities.listHome(list, "t", "")).toBeUndefined();
  });

  it("keeps two savers' identities apart: one saver's stored objects are unknown to another", () => {
    const [first, second] = [new StoredIdentities(), new StoredIdentities()];
    const message = new HumanMessage({ id: "m1", content: "hi" });
    const list = [message];
    first.rememberMessage(message, "t", "m1:abc");
    first.rememberList(list, { thread: "t", ns: "", checkpoint: "c1", channel: "messages" });
    expect(second.messageKey(message, "t")).toBeUndefined();
    expect(second.listHome(list, "t", "")).toBeUndefined();
  });
});
