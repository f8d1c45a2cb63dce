import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { OfflineChatModel } from "./offline.js";

const searchIssues = tool(async ({ query }) => `found 2 issues for ${query}`, {
  name: "search_issues",
  description: "Search Jira issues with text",
  schema: z.object({
    query: z.string().describe("Text to look for"),
    limit: z.number().int().max(50).optional(),
    open: z.boolean().optional(),
    labels: z.array(z.string()).optional(),
  }),
});
const getIssue = tool(async ({ key }) => `${key}: Login page times out`, {
  name: "get_issue",
  description: "Fetch one issue",
  schema: z.object({ key: z.string(), format: z.enum(["short", "full"]).optional() }),
});

const model = new OfflineChatModel();
const bound = model.bindTools([searchIssues, getIssue]);

async function ask(text: string) {
  return bound.invoke([new HumanMessage(text)]);
}

describe("OfflineChatModel commands", () => {
  it("turns /tool key=value into a call, converting values to the schema's types", async () => {
    const reply = await ask('/search_issues query="login bug" limit=5 open=true labels=ui,auth');
    expect(reply.content).toBe("");
    expect(reply.tool_calls).toEqual([
      {
        id: "offline_call_1",
        name: "search_issues",
        args: { query: "login bug", limit: 5, open: true, labels: ["ui", "auth"] },
        type: "tool_call",
      },
    ]);
  });

  it("turns /tool {json} into a call", async () => {
    const reply = await ask('/get_issue {"key":"PROJ-7","format":"full"}');
    expect(reply.tool_calls?.[0]).toMatchObject({
      name: "get_issue",
      args: { key: "PROJ-7", format: "full" },
    });
  });

  it("keeps quoted text, escapes and single quotes intact", async () => {
    const reply = await ask(`/search_issues query="say \\"hi\\" = x" labels='["a b","c"]'`);
    expect(reply.tool_calls?.[0]?.args).toEqual({ query: 'say "hi" = x', labels: ["a b", "c"] });
  });

  it("calls a tool without arguments", async () => {
    const noArgs = tool(async () => "pong", { name: "ping", description: "Check", schema: z.object({}) });
    const reply = await model.bindTools([noArgs]).invoke([new HumanMessage("/ping")]);
    expect(reply.tool_calls).toMatchObject([{ name: "ping", args: {} }]);
  });

  it("explains bad arguments with the usage of the tool", async () => {
    const reply = await ask("/search_issues limit=many colour=red");
    expect(reply.tool_calls).toEqual([]);
    expect(reply.content).toBe(
      [
        '[offline mode] Cannot call search_issues: missing required argument query; limit must be an integer, got "many"; unknown argument colour.',
        "Usage: /search_issues query=<string> [limit=<integer>] [open=<boolean>] [labels=<string[]>]",
        "    query (string, required): Text to look for",
        "    limit (integer, optional)",
        "    open (boolean, optional)",
        "    labels (string[], optional)",
        'Example: /search_issues query="some text"',
      ].join("\n"),
    );
  });

  it("applies the tool's own zod checks and enum values", async () => {
    expect((await ask("/search_issues query=x limit=500")).content).toMatch(
      /Cannot call search_issues: limit: Too big: expected number to be <=50/,
    );
    expect((await ask("/get_issue key=A-1 format=long")).content).toContain(
      'format must be one of "short", "full", got "long"',
    );
    expect((await ask("/get_issue {key: 1}")).content).toContain("not a valid JSON object");
    expect((await ask('/get_issue key="A-1')).content).toContain('the value of key has no closing "');
    expect((await ask("/get_issue A-1")).content).toContain('expected key=value, got "A-1"');
  });

  it("lists the tools for an unknown tool", async () => {
    const reply = await ask("/delete_everything now=true");
    expect(reply.content).toMatch(
      /^\[offline mode\] There is no tool named "delete_everything"\. Available tools:\n/,
    );
    expect(reply.content).toContain("/search_issues query=<string>");
    expect(reply.content).toContain('/get_issue key=<string> [format=<"short"|"full">]');
  });
});

describe("OfflineChatModel help", () => {
  it("says no LLM is configured and lists the tools with one example for anything else", async () => {
    const reply = await ask("What's up with the login page?");
    const text = String(reply.content);
    expect(text).toMatch(/^\[offline mode\] No LLM is configured/);
    expect(text).toContain(
      "Set LLM_PROVIDER (openai, azure-openai, anthropic-claude, aws-bedrock, google-gemini, ollama)",
    );
    expect(text).toContain(
      "  /search_issues query=<string> [limit=<integer>] [open=<boolean>] [labels=<string[]>]\n    Search Jira issues with text",
    );
    expect(text).toContain("  /get_issue key=<string>");
    expect(text).toMatch(/Example:\n {2}\/search_issues query="some text"$/);
    expect(reply.tool_calls).toEqual([]);
    expect(String((await ask("/help")).content)).toBe(text);
  });

  it("says so when no tools are bound", async () => {
    const reply = await model.invoke("hello");
    expect(reply.content).toContain("This agent has no tools to call.");
  });
});

describe("OfflineChatModel after a tool result", () => {
  const call = new AIMessage({
    content: "",
    tool_calls: [{ id: "offline_call_1", name: "search_issues", args: { query: "x" }, type: "tool_call" }],
  });

  it("labels the result and repeats it verbatim", async () => {
    const result = new ToolMessage({
      content: "PROJ-1 Login\nPROJ-2 Logout",
      tool_call_id: "offline_call_1",
    });
    const reply = await bound.invoke([new HumanMessage("/search_issues query=x"), call, result]);
    expect(reply.content).toBe("[offline mode] search_issues returned:\nPROJ-1 Login\nPROJ-2 Logout");
    expect(reply.tool_calls).toEqual([]);
  });

  it("reports a declined or failed call the same way", async () => {
    const declined = new ToolMessage({
      content: "The user declined this action.",
      tool_call_id: "offline_call_1",
      name: "search_issues",
      status: "error",
    });
    const reply = await bound.invoke([new HumanMessage("/search_issues query=x"), call, declined]);
    expect(reply.content).toBe("[offline mode] search_issues failed:\nThe user declined this action.");
  });
});

describe("OfflineChatModel behaviour", () => {
  it("is deterministic", async () => {
    const inputs = ["hello", "/search_issues query=a limit=2", "/nope", "/get_issue"];
    for (const input of inputs) {
      const [a, b] = await Promise.all([ask(input), ask(input)]);
      expect([b.content, b.tool_calls]).toEqual([a.content, a.tool_calls]);
    }
  });

  it("streams the same reply in one chunk, tool calls included", async () => {
    const chunks = [];
    for await (const chunk of await bound.stream([new HumanMessage("/get_issue key=PROJ-7")]))
      chunks.push(chunk);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.tool_calls).toMatchObject([
      { name: "get_issue", args: { key: "PROJ-7" }, id: "offline_call_1" },
    ]);
    const text = [];
    for await (const chunk of await bound.stream("hi")) text.push(chunk.text);
    expect(text.join("")).toBe(String((await ask("hi")).content));
  });
});

describe("offline mode with defaulted arguments", () => {
  it("lets a person leave out an argument that has a default", async () => {
    const search = tool(async () => "", {
      name: "search_issues",
      description: "Search",
      schema: z.object({ jql: z.string(), max_results: z.number().int().default(20) }),
    });
    const model = new OfflineChatModel().bindTools([search]);
    const reply = await model.invoke([new HumanMessage('/search_issues jql="project = PLAT"')]);
    // The tool fills in the default itself when it runs.
    expect(reply.tool_calls?.[0]).toMatchObject({ name: "search_issues", args: { jql: "project = PLAT" } });
  });
});
