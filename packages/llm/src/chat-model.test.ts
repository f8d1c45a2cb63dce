import { ChatAnthropic } from "@langchain/anthropic";
import { ChatBedrockConverse } from "@langchain/aws";
import { ChatGoogle } from "@langchain/google";
import { ChatOllama } from "@langchain/ollama";
import { AzureChatOpenAI, ChatOpenAI } from "@langchain/openai";
import { SwitchboardError } from "@switchboard/common";
import { guardOutboundConnections } from "@switchboard-testing/test-llm";
import { afterAll, describe, expect, it } from "vitest";
import { createChatModel } from "./chat-model.js";
import { OfflineChatModel } from "./offline.js";

// The real provider classes, built from env; no provider class contacts anything while being constructed.
const guard = guardOutboundConnections();
afterAll(() => guard.restore());

describe("createChatModel", () => {
  it("returns the offline model when LLM_PROVIDER is unset", async () => {
    const choice = await createChatModel({ env: {} });
    expect(choice).toMatchObject({ provider: "offline", modelName: "offline", offline: true });
    expect(choice.model).toBeInstanceOf(OfflineChatModel);
  });

  it("builds ChatOpenAI from OPENAI_* without streaming: true", async () => {
    const { model } = await createChatModel({
      env: {
        LLM_PROVIDER: "openai",
        OPENAI_API_KEY: "k",
        OPENAI_MODEL_NAME: "gpt-4o",
        OPENAI_ENDPOINT: "http://gw:4000/v1",
      },
    });
    expect(model).toBeInstanceOf(ChatOpenAI);
    const openai = model as ChatOpenAI;
    expect([openai.model, openai.temperature, openai.streaming]).toEqual(["gpt-4o", 0.3, false]);
    expect(openai.clientConfig.baseURL).toBe("http://gw:4000/v1");
  });

  it("builds AzureChatOpenAI from AZURE_OPENAI_*", async () => {
    const { model, modelName } = await createChatModel({
      env: {
        LLM_PROVIDER: "azure-openai",
        AZURE_OPENAI_API_KEY: "k",
        AZURE_OPENAI_ENDPOINT: "https://acme.openai.azure.com/",
        AZURE_OPENAI_DEPLOYMENT: "gpt-4o",
        AZURE_OPENAI_API_VERSION: "2025-03-01-preview",
      },
    });
    expect(model).toBeInstanceOf(AzureChatOpenAI);
    const azure = model as AzureChatOpenAI;
    expect(modelName).toBe("gpt-4o");
    expect([
      azure.azureOpenAIEndpoint,
      azure.azureOpenAIApiDeploymentName,
      azure.azureOpenAIApiVersion,
    ]).toEqual(["https://acme.openai.azure.com", "gpt-4o", "2025-03-01-preview"]);
  });

  it("builds ChatAnthropic from ANTHROPIC_*", async () => {
    const { model } = await createChatModel({
      env: {
        LLM_PROVIDER: "anthropic-claude",
        ANTHROPIC_API_KEY: "k",
        ANTHROPIC_MODEL_NAME: "claude-sonnet-4-5",
        ANTHROPIC_TEMPERATURE: "0.1",
      },
    });
    expect(model).toBeInstanceOf(ChatAnthropic);
    const anthropic = model as ChatAnthropic;
    expect([anthropic.model, anthropic.temperature, anthropic.apiUrl]).toEqual([
      "claude-sonnet-4-5",
      0.1,
      "https://api.anthropic.com",
    ]);
  });

  it("builds ChatBedrockConverse from AWS_BEDROCK_MODEL_ID, AWS_REGION, keys and AWS_ENDPOINT_URL", async () => {
    const { model, modelName } = await createChatModel({
      env: {
        LLM_PROVIDER: "aws-bedrock",
        AWS_BEDROCK_MODEL_ID: "us.amazon.nova-pro-v1:0",
        AWS_REGION: "eu-west-1",
        AWS_ACCESS_KEY_ID: "AKIATEST",
        AWS_SECRET_ACCESS_KEY: "secret",
        AWS_ENDPOINT_URL: "http://127.0.0.1:5000",
      },
    });
    expect(model).toBeInstanceOf(ChatBedrockConverse);
    const bedrock = model as ChatBedrockConverse;
    expect([modelName, bedrock.model, bedrock.region]).toEqual([
      "us.amazon.nova-pro-v1:0",
      "us.amazon.nova-pro-v1:0",
      "eu-west-1",
    ]);
    expect(await bedrock.client.config.region()).toBe("eu-west-1");
    expect(await bedrock.client.config.credentials()).toMatchObject({ accessKeyId: "AKIATEST" });
    const endpoint = await bedrock.client.config.endpoint?.();
    expect(endpoint).toMatchObject({ protocol: "http:", hostname: "127.0.0.1", port: 5000 });
  });

  it("builds ChatGoogle (the Gemini API) from GOOGLE_*", async () => {
    const { model } = await createChatModel({
      env: {
        LLM_PROVIDER: "google-gemini",
        GOOGLE_API_KEY: "k",
        GOOGLE_GEMINI_MODEL_NAME: "gemini-2.5-flash",
      },
    });
    expect(model).toBeInstanceOf(ChatGoogle);
    const gemini = model as ChatGoogle;
    const { generationConfig } = gemini.invocationParams({} as ChatGoogle["ParsedCallOptions"]);
    expect([gemini.model, generationConfig.temperature]).toEqual(["gemini-2.5-flash", 0.3]);
  });

  it("builds ChatOllama from OLLAMA_*", async () => {
    const { model } = await createChatModel({
      env: { LLM_PROVIDER: "ollama", OLLAMA_MODEL: "llama3.2", OLLAMA_BASE_URL: "http://gpu-box:11434/" },
    });
    expect(model).toBeInstanceOf(ChatOllama);
    const ollama = model as ChatOllama;
    expect([ollama.model, ollama.baseUrl]).toEqual(["llama3.2", "http://gpu-box:11434"]);
  });

  it("throws a user error naming the missing variable and the provider", async () => {
    await expect(
      createChatModel({ env: { LLM_PROVIDER: "anthropic-claude", ANTHROPIC_API_KEY: "k" } }),
    ).rejects.toThrow(
      new SwitchboardError(
        "llm.config",
        "user",
        "LLM_PROVIDER=anthropic-claude needs ANTHROPIC_MODEL_NAME: set it in the environment or .env file (or unset LLM_PROVIDER to run in offline mode without an LLM).",
      ),
    );
  });

  it("contacted nothing while constructing", async () => {
    expect(guard.disallowedHosts()).toEqual([]);
  });
});
