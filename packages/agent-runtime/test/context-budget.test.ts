import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { boundedHistory, SUMMARY_PREFIX, type Summarize } from "../src/graph/context-budget.js";

const history: BaseMessage[] = [
  new HumanMessage({ id: "h1", content: "first" }),
  new AIMessage({ id: "a1", content: "", tool_calls: [{ id: "c1", name: "look", args: {} }] }),
  new ToolMessage({ id: "t1", tool_call_id: "c1", content: "found" }),
  new AIMessage({ id: "a2", content: "answer" }),
  new HumanMessage({ id: "h2", content: "second" }),
];

/** Summarizes all but the last `keep` messages it is given, recording what it was given. */
function fakeSummarizer(keep: number, seen: string[][]): Summarize {
  return async (messages) => {
    seen.push(messages.map((message) => String(message.id)));
    if (messages.length <= keep) return undefined;
    const text = `${SUMMARY_PREFIX}\n\n${messages.length - keep} older messages`;
    return { summary: new HumanMessage(text), kept: messages.slice(-keep) };
  };
}

describe("boundedHistory", () => {
  it("sends everything while it fits", async () => {
    const sent = await boundedHistory(history, undefined, fakeSummarizer(10, []));
    expect(sent.messages.map((message) => message.id)).toEqual(["h1", "a1", "t1", "a2", "h2"]);
    expect(sent.summary).toBeUndefined();
  });

  it("sends summary + kept messages and records the newest message the summary covers", async () => {
    const sent = await boundedHistory(history, undefined, fakeSummarizer(2, []));
    expect(sent.messages.map((message) => message.id)).toEqual(["context-summary", "a2", "h2"]);
    expect(sent.summary).toEqual({ text: `${SUMMARY_PREFIX}\n\n3 older messages`, through: "t1" });
  });

  it("starts from the stored summary and only the messages after it", async () => {
    const seen: string[][] = [];
    const stored = { text: `${SUMMARY_PREFIX}\n\nearlier`, through: "t1" };
    const sent = await boundedHistory(history, stored, fakeSummarizer(10, seen));
    expect(seen).toEqual([["context-summary", "a2", "h2"]]);
    expect(sent.messages[0]?.content).toBe(stored.text);
    expect(sent.summary).toBeUndefined();
  });

  it("uses the whole history when the stored summary's last message is gone", async () => {
    const seen: string[][] = [];
    await boundedHistory(history, { text: "stale", through: "nope" }, fakeSummarizer(10, seen));
    expect(seen).toEqual([["h1", "a1", "t1", "a2", "h2"]]);
  });
});
