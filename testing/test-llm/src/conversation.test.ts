import { describe, expect, it } from "vitest";
import {
  contextProblems,
  conversationTokens,
  isSummaryRequest,
  textToSummarize,
  toolPairProblems,
} from "./conversation.js";
import type { ChatCompletionRequest, ChatMessage } from "./types.js";

const request = (messages: ChatMessage[]): ChatCompletionRequest => ({ model: "gpt-4o-mini", messages });
const call = (id: string): ChatMessage => ({
  role: "assistant",
  content: null,
  tool_calls: [{ id, type: "function", function: { name: "look", arguments: "{}" } }],
});
const result = (id: string): ChatMessage => ({ role: "tool", tool_call_id: id, content: "found" });

describe("toolPairProblems", () => {
  it("accepts calls answered right after them", () => {
    const ok = [{ role: "user", content: "hi" }, call("c1"), result("c1")] as ChatMessage[];
    expect(toolPairProblems(request([...ok, { role: "assistant", content: "done" }]))).toEqual([]);
  });

  it("reports a result without its call, and a call without its result", () => {
    expect(toolPairProblems(request([{ role: "user", content: "summary" }, result("c1")]))).toEqual([
      "messages[1]: tool result c1 without its call before it",
    ]);
    expect(toolPairProblems(request([call("c1"), { role: "user", content: "next" }]))).toEqual([
      "messages[1]: tool call c1 has no result",
    ]);
    expect(toolPairProblems(request([call("c1")]))).toEqual(["tool call c1 has no result"]);
  });
});

describe("summary requests and sizes", () => {
  it("recognizes the summary prompt and returns what it summarizes", () => {
    const prompt = request([
      { role: "user", content: "Extract context.\nMessages to summarize:\nHuman: hi" },
    ]);
    expect(isSummaryRequest(prompt)).toBe(true);
    expect(textToSummarize(prompt)).toBe("\nHuman: hi");
    expect(isSummaryRequest(request([{ role: "system", content: "x" }, ...prompt.messages]))).toBe(false);
  });

  it("estimates a conversation at characters / 4, without the system prompt", () => {
    const sized = request([
      { role: "system", content: "x".repeat(400) },
      { role: "user", content: "y".repeat(40) },
    ]);
    expect(conversationTokens(sized)).toBe(10);
  });
});

describe("contextProblems", () => {
  it("names each request that went over the budget or broke a tool pair", () => {
    const fits = request([{ role: "user", content: "hi" }, call("c1"), result("c1")]);
    const long = request([{ role: "user", content: "x".repeat(400) }]);
    const orphan = request([{ role: "user", content: "hi" }, result("c9")]);
    expect(contextProblems([fits], 50)).toEqual([]);
    const problems = contextProblems([fits, long, orphan], 50);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^request 1: \d+ tokens, budget 50$/);
    expect(problems[1]).toMatch(/^request 2: /);
  });
});
