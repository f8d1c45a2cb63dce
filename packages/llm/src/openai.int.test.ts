import { HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { AzureChatOpenAI, ChatOpenAI } from "@langchain/openai";
import {
  callTool,
  guardOutboundConnections,
  type OutboundGuard,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createChatModel } from "./chat-model.js";

// The real @langchain/openai clients built by createChatModel, against the scripted LLM server on loopback.

const getIssue = tool(async ({ key }) => `${key}: Login page times out (status: In Progress)`, {
  name: "get_issue",
  description: "Fetch a Jira issue by key",
  schema: z.object({ key: z.string() }),
});

describe("createChatModel with a real OpenAI-compatible server", () => {
  let llm: ScriptedLlm;
  let guard: OutboundGuard;
  beforeAll(async () => {
    guard = guardOutboundConnections();
    llm = await startScriptedLlm({
      apiKey: "sk-switchboard",
      script: rules(
        [
          {
            lastUser: /\b([A-Z]+-\d+)\b/,
            reply: (_req, { match }) => callTool("get_issue", { key: match?.[1] }),
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

  const openaiEnv = (): NodeJS.ProcessEnv => ({
    LLM_PROVIDER: "openai",
    OPENAI_API_KEY: "sk-switchboard",
    OPENAI_BASE_URL: llm.url,
    OPENAI_MODEL_NAME: "gpt-4o-mini",
  });

  it("answers invoke() with the model CAIPE's OPENAI_MODEL_NAME names", async () => {
    const choice = await createChatModel({ env: openaiEnv() });
    expect(choice).toMatchObject({ provider: "openai", modelName: "gpt-4o-mini", offline: false });
    expect(choice.model).toBeInstanceOf(ChatOpenAI);
    const reply = await choice.model.invoke("hi");
    expect(reply.text).toBe("Hello from the scripted model");
    const request = llm.requests.at(-1);
    expect(request?.model).toBe("gpt-4o-mini");
    expect(request?.temperature).toBe(0.3);
    expect(request?.stream).not.toBe(true);
  });

  it("reaches the server through CAIPE's OPENAI_ENDPOINT too", async () => {
    const env = { ...openaiEnv(), OPENAI_BASE_URL: "", OPENAI_ENDPOINT: llm.url, OPENAI_TEMPERATURE: "0" };
    const reply = await (await createChatModel({ env })).model.invoke("hi");
    expect(reply.text).toBe("Hello from the scripted model");
    expect(llm.requests.at(-1)?.temperature).toBe(0);
  });

  it("runs a tool-call round trip through bindTools", async () => {
    const { model } = await createChatModel({ env: openaiEnv() });
    const bound = model.bindTools?.([getIssue]);
    if (!bound) throw new Error("bindTools missing");
    const first = await bound.invoke([new HumanMessage("What is the status of PROJ-7?")]);
    expect(first.tool_calls).toMatchObject([{ name: "get_issue", args: { key: "PROJ-7" } }]);
    const call = first.tool_calls?.[0];
    if (!call) throw new Error("no tool call");
    const result = await getIssue.invoke(call);
    const second = await bound.invoke([new HumanMessage("What is the status of PROJ-7?"), first, result]);
    expect(second.text).toContain("PROJ-7: Login page times out");
  });

  it("streams with .stream() without constructing a streaming: true model", async () => {
    const { model } = await createChatModel({ env: openaiEnv() });
    expect((model as ChatOpenAI).streaming).toBe(false);
    const chunks: string[] = [];
    for await (const chunk of await model.stream("hi")) chunks.push(chunk.text);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join("")).toBe("Hello from the scripted model");
    expect(llm.requests.at(-1)?.stream).toBe(true);
  });

  it("talks to an Azure deployment route with CAIPE's AZURE_OPENAI_* variables", async () => {
    const choice = await createChatModel({
      env: {
        LLM_PROVIDER: "azure-openai",
        AZURE_OPENAI_API_KEY: "sk-switchboard",
        AZURE_OPENAI_ENDPOINT: llm.azureEndpoint,
        AZURE_OPENAI_DEPLOYMENT: "gpt-4o-prod",
        AZURE_OPENAI_API_VERSION: "2025-03-01-preview",
      },
    });
    expect(choice).toMatchObject({ provider: "azure-openai", modelName: "gpt-4o-prod" });
    expect(choice.model).toBeInstanceOf(AzureChatOpenAI);
    const bound = choice.model.bindTools?.([getIssue]);
    const reply = await bound?.invoke("Look at OPS-12 please");
    expect(reply?.tool_calls).toMatchObject([{ name: "get_issue", args: { key: "OPS-12" } }]);
    let streamed = "";
    for await (const chunk of await choice.model.stream("hi")) streamed += chunk.text;
    expect(streamed).toBe("Hello from the scripted model");
  });

  it("contacted no host but 127.0.0.1 (no tokenizer download, no tracing)", () => {
    expect(guard.disallowedHosts()).toEqual([]);
  });
});
