import { tool } from "@langchain/core/tools";
import { Command, MemorySaver } from "@langchain/langgraph";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { createAgent, humanInTheLoopMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { OfflineChatModel } from "./offline.js";

// The offline model driving real agent loops with a checkpointer, as an agent without an LLM key runs.

const calls: string[] = [];
const getIssue = tool(
  async ({ key }) => {
    calls.push(key);
    return `${key}: Login page times out (status: In Progress)`;
  },
  { name: "get_issue", description: "Fetch a Jira issue by key", schema: z.object({ key: z.string() }) },
);

function lastText(state: { messages: { content: unknown }[] }): string {
  return String(state.messages.at(-1)?.content);
}

describe("offline agent loop", () => {
  it("runs help, a tool call and its labelled result through createAgent with a MemorySaver", async () => {
    const agent = createAgent({
      model: new OfflineChatModel(),
      tools: [getIssue],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "t1" } };

    const help = await agent.invoke(
      { messages: [{ role: "user", content: "what's up with PROJ-7?" }] },
      config,
    );
    expect(lastText(help)).toContain("No LLM is configured");
    expect(lastText(help)).toContain("/get_issue key=<string>");

    const answer = await agent.invoke(
      { messages: [{ role: "user", content: "/get_issue key=PROJ-7" }] },
      config,
    );
    expect(lastText(answer)).toBe(
      "[offline mode] get_issue returned:\nPROJ-7: Login page times out (status: In Progress)",
    );
    // help, command, tool call, tool result, answer: the thread kept the first turn.
    expect(answer.messages).toHaveLength(6);
  });

  it("answers after a human-in-the-loop rejection when the graph resumes", async () => {
    calls.length = 0;
    const agent = createAgent({
      model: new OfflineChatModel(),
      tools: [getIssue],
      checkpointer: new MemorySaver(),
      middleware: [humanInTheLoopMiddleware({ interruptOn: { get_issue: true } })],
    });
    const config = { configurable: { thread_id: "t2" } };
    const paused = await agent.invoke(
      { messages: [{ role: "user", content: "/get_issue key=PROJ-9" }] },
      config,
    );
    expect(paused.__interrupt__).toBeDefined();
    const resumed = await agent.invoke(
      new Command({
        resume: { decisions: [{ type: "reject", message: "The user declined to fetch PROJ-9." }] },
      }),
      config,
    );
    expect(calls).toEqual([]);
    expect(lastText(resumed)).toBe("[offline mode] get_issue failed:\nThe user declined to fetch PROJ-9.");
  });

  it("works with LangGraph's prebuilt createReactAgent too", async () => {
    const agent = createReactAgent({
      llm: new OfflineChatModel(),
      tools: [getIssue],
      checkpointSaver: new MemorySaver(),
    });
    const result = await agent.invoke(
      { messages: [{ role: "user", content: '/get_issue {"key":"OPS-1"}' }] },
      { configurable: { thread_id: "t3" } },
    );
    expect(lastText(result)).toBe(
      "[offline mode] get_issue returned:\nOPS-1: Login page times out (status: In Progress)",
    );
  });

  it("streams the offline reply in LangGraph's messages mode", async () => {
    const agent = createAgent({
      model: new OfflineChatModel(),
      tools: [getIssue],
      checkpointer: new MemorySaver(),
    });
    let streamed = "";
    for await (const [chunk] of await agent.stream(
      { messages: [{ role: "user", content: "hello" }] },
      { configurable: { thread_id: "t4" }, streamMode: "messages" },
    )) {
      streamed += typeof chunk.content === "string" ? chunk.content : "";
    }
    expect(streamed).toMatch(/^\[offline mode\] No LLM is configured/);
  });
});
