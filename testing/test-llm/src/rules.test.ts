import { describe, expect, it } from "vitest";
import { echo, heldReply, replyFromToolResult, say, sequence } from "./replies.js";
import { rules } from "./rules.js";
import type { ChatCompletionRequest, ChatMessage } from "./types.js";

function request(messages: ChatMessage[], toolNames: string[] = []): ChatCompletionRequest {
  return {
    model: "gpt-4o-mini",
    messages,
    tools: toolNames.map((name) => ({ type: "function", function: { name } })),
  };
}

const askedForIssue: ChatMessage[] = [
  { role: "system", content: "You are the Jira agent." },
  { role: "user", content: "Show PROJ-1" },
];
const afterIssueTool: ChatMessage[] = [
  ...askedForIssue,
  {
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "call_1", type: "function", function: { name: "get_issue", arguments: '{"key":"PROJ-1"}' } },
    ],
  },
  { role: "tool", tool_call_id: "call_1", content: "PROJ-1 is Done" },
];

const jira = rules(
  [
    {
      when: { lastUser: /([A-Z]+-\d+)/ },
      reply: (_r, { match }) => ({ toolCalls: [{ name: "get_issue", args: { key: match?.[1] } }] }),
    },
    { afterTool: "get_issue", reply: replyFromToolResult() },
  ],
  say("fallback"),
);

describe("rules", () => {
  it("calls the tool when the last message is a matching user message", async () => {
    expect(await jira(request(askedForIssue))).toEqual({
      toolCalls: [{ name: "get_issue", args: { key: "PROJ-1" } }],
    });
  });

  it("answers from the tool result instead of calling the tool again once it has run", async () => {
    // The user message still matches /PROJ-1/, but it is no longer the last message.
    expect(await jira(request(afterIssueTool))).toEqual({ content: "get_issue returned: PROJ-1 is Done" });
  });

  it("falls back to the default reply, or a reply naming the unmatched message", async () => {
    expect(await jira(request([{ role: "user", content: "hello" }]))).toEqual({ content: "fallback" });
    const noDefault = rules([]);
    expect(await noDefault(request([{ role: "user", content: "hello" }]))).toEqual({
      content: 'test-llm: no rule matched the last user message "hello"',
    });
  });

  it("matches strings as case-insensitive substrings of text and exact tool names", async () => {
    const script = rules([
      { lastUser: "status", reply: say("text match") },
      { afterTool: "get", reply: say("wrong: prefix of a tool name") },
      { toolResult: "done", reply: say("result match") },
    ]);
    expect(await script(request([{ role: "user", content: "What's the STATUS?" }]))).toEqual({
      content: "text match",
    });
    expect(await script(request(afterIssueTool))).toEqual({ content: "result match" });
  });

  it("combines conditions: system prompt, offered tools, model, custom test", async () => {
    const script = rules(
      [
        { when: { system: /jira agent/i, toolOffered: "get_issue" }, reply: say("jira with tools") },
        { system: /jira agent/i, model: /^gpt-4o/, reply: say("jira without tools") },
        { test: (r) => r.messages.length > 5, reply: say("long") },
      ],
      say("none"),
    );
    expect(await script(request(askedForIssue, ["get_issue"]))).toEqual({ content: "jira with tools" });
    expect(await script(request(askedForIssue))).toEqual({ content: "jira without tools" });
    expect(await script(request([{ role: "user", content: "x" }]))).toEqual({ content: "none" });
  });

  it("reads text out of content-part arrays", async () => {
    const parts: ChatMessage = {
      role: "user",
      content: [
        { type: "text", text: "look at " },
        { type: "text", text: "ABC-12" },
      ],
    };
    expect(await jira(request([parts]))).toEqual({
      toolCalls: [{ name: "get_issue", args: { key: "ABC-12" } }],
    });
  });
});

describe("replyFromToolResult", () => {
  it("includes every result of parallel tool calls", async () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "weather in A and B" },
      {
        role: "assistant",
        tool_calls: [
          { id: "a", type: "function", function: { name: "weather", arguments: '{"city":"A"}' } },
          { id: "b", type: "function", function: { name: "weather", arguments: '{"city":"B"}' } },
        ],
      },
      { role: "tool", tool_call_id: "a", content: "A: sunny" },
      { role: "tool", tool_call_id: "b", content: "B: rain" },
    ];
    expect(await replyFromToolResult()(request(messages))).toEqual({
      content: "weather returned: A: sunny\nweather returned: B: rain",
    });
    const custom = replyFromToolResult((results) =>
      results.map((r) => `${r.args.city}=${r.content}`).join(", "),
    );
    expect(await custom(request(messages))).toEqual({ content: "A=A: sunny, B=B: rain" });
  });

  it("fails with a clear message when there is no tool result", () => {
    expect(() => replyFromToolResult()(request([{ role: "user", content: "hi" }]))).toThrow(/no tool result/);
  });
});

describe("sequence and echo", () => {
  it("replies with each step in turn and says when it runs out", async () => {
    const script = sequence(say("one"), echo("two: "));
    const req = request([{ role: "user", content: "x" }]);
    expect(await script(req)).toEqual({ content: "one" });
    expect(await script(req)).toEqual({ content: "two: x" });
    expect(() => script(req)).toThrow(/sequence ran out: it has 2 replies and got request 3/);
  });

  it("holds a held reply's calls until released, and answers at once when not held", async () => {
    const held = heldReply(say("done"));
    const req = request(askedForIssue);
    expect(await held.reply(req)).toEqual({ content: "done" });
    held.hold();
    let answered = false;
    const waiting = Promise.resolve(held.reply(req)).then((reply) => {
      answered = true;
      return reply;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect({ answered, calls: held.calls }).toEqual({ answered: false, calls: 2 });
    held.hold(); // holding again keeps the same hold: one release lets every waiting call go
    held.release();
    expect(await waiting).toEqual({ content: "done" });
  });
});
