import { AzureChatOpenAI } from "@langchain/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool, say } from "./replies.js";
import { rules } from "./rules.js";
import { type ScriptedLlm, startScriptedLlm } from "./server.js";

// The real AzureChatOpenAI client: deployment in the path, api-version in the query, `api-key` header.

describe("Azure OpenAI route", () => {
  let llm: ScriptedLlm;
  beforeAll(async () => {
    llm = await startScriptedLlm({
      apiKey: "azure-key",
      script: rules(
        [{ lastUser: "weather", reply: callTool("get_weather", { city: "Oslo" }) }],
        say("hi from azure"),
      ),
    });
  });
  afterAll(() => llm.close());

  function azure(apiKey = "azure-key") {
    return new AzureChatOpenAI({
      azureOpenAIApiKey: apiKey,
      azureOpenAIEndpoint: llm.azureEndpoint,
      azureOpenAIApiDeploymentName: "gpt-4o-prod",
      azureOpenAIApiVersion: "2024-10-21",
      maxRetries: 0,
    });
  }

  it("answers AzureChatOpenAI on /openai/deployments/{deployment}/chat/completions", async () => {
    const reply = await azure().invoke("hello");
    expect(reply.text).toBe("hi from azure");
    expect(llm.requests.at(-1)?.messages.at(-1)?.content).toBe("hello");
  });

  it("streams tool calls to AzureChatOpenAI", async () => {
    let text = "";
    const calls: string[] = [];
    for await (const chunk of await azure().stream("what is the weather?")) {
      text += chunk.text;
      for (const call of chunk.tool_call_chunks ?? []) if (call.name) calls.push(call.name);
    }
    expect(text).toBe("");
    expect(calls).toEqual(["get_weather"]);
  });

  it("rejects a wrong api-key the way Azure does", async () => {
    await expect(azure("wrong").invoke("hello")).rejects.toThrow(/invalid subscription key/);
  });

  it("requires the api-version query parameter", async () => {
    const response = await fetch(`${llm.azureEndpoint}/openai/deployments/x/chat/completions`, {
      method: "POST",
      headers: { "api-key": "azure-key", "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/api-version/);
  });
});
