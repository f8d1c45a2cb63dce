import { type AIMessageChunk, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import {
  guardOutboundConnections,
  type OutboundGuard,
  PROVIDER_NAMES,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createChatModel } from "./chat-model.js";

// Every LLM_PROVIDER, configured only through its env settings, against the scripted server speaking that
// provider's own protocol: the base URL settings reach the SDKs, and a tool turn completes.

const getIssue = tool(async ({ key }) => `${key}: Login page times out (status: In Progress)`, {
  name: "get_issue",
  description: "Fetch a Jira issue by key",
  schema: z.object({ key: z.string().describe("Issue key, e.g. PLAT-1") }),
});

const DIALECT = {
  openai: "openai",
  "azure-openai": "openai",
  "anthropic-claude": "anthropic",
  "aws-bedrock": "bedrock",
  "google-gemini": "gemini",
  ollama: "ollama",
} as const;

let llm: ScriptedLlm;
let guard: OutboundGuard;
beforeAll(async () => {
  guard = guardOutboundConnections();
  llm = await startScriptedLlm({
    script: rules(
      [
        {
          lastUser: /\b([A-Z]+-\d+)\b/,
          reply: (_r, { match }) => ({ toolCalls: [{ name: "get_issue", args: { key: match?.[1] } }] }),
        },
        { afterTool: "get_issue", reply: replyFromToolResult() },
      ],
      say("Hello from the scripted model"),
    ),
  });
});
afterAll(async () => {
  await llm.close();
  guard.restore();
});

describe.each(PROVIDER_NAMES)("LLM_PROVIDER=%s", (provider) => {
  it("completes a tool turn over the provider's protocol, whole and streamed", async () => {
    const choice = await createChatModel({ env: llm.envFor(provider) });
    expect(choice).toMatchObject({ provider, offline: false });
    const model = choice.model.bindTools?.([getIssue]);
    if (!model) throw new Error(`${provider}: no bindTools`);
    const ask = new HumanMessage("What is the status of PLAT-7?");

    const call = await model.invoke([ask]);
    expect(call.tool_calls?.map((c) => [c.name, c.args])).toEqual([["get_issue", { key: "PLAT-7" }]]);
    // ChatOllama streams even for invoke(); the others send a whole request.
    expect(llm.calls.at(-1)).toMatchObject({ dialect: DIALECT[provider], stream: provider === "ollama" });
    const result = await getIssue.invoke(call.tool_calls?.[0] ?? { name: "", args: {}, id: "" });
    expect(result).toBeInstanceOf(ToolMessage);

    let answer = "";
    let merged: AIMessageChunk | undefined;
    for await (const chunk of await model.stream([ask, call, result])) {
      answer += chunk.text;
      merged = merged === undefined ? chunk : merged.concat(chunk);
    }
    expect(answer).toBe("get_issue returned: PLAT-7: Login page times out (status: In Progress)");
    expect(llm.calls.at(-1)).toMatchObject({ dialect: DIALECT[provider], stream: true });
    expect(merged?.usage_metadata?.input_tokens ?? 0).toBeGreaterThan(0);
  });
});
