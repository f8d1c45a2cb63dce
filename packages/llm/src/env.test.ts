import { SwitchboardError } from "@switchboard/common";
import { describe, expect, it } from "vitest";
import { LLM_PROVIDERS, readLlmSettings } from "./env.js";

function configError(env: NodeJS.ProcessEnv): SwitchboardError {
  try {
    readLlmSettings(env);
  } catch (error) {
    expect(error).toBeInstanceOf(SwitchboardError);
    expect((error as SwitchboardError).category).toBe("user");
    return error as SwitchboardError;
  }
  throw new Error("expected a configuration error");
}

describe("readLlmSettings", () => {
  it("selects offline mode when LLM_PROVIDER is unset, empty or offline", () => {
    expect(readLlmSettings({})).toEqual({ provider: "offline", reason: "unset" });
    expect(readLlmSettings({ LLM_PROVIDER: "  " })).toEqual({ provider: "offline", reason: "unset" });
    expect(readLlmSettings({ LLM_PROVIDER: "offline" })).toEqual({
      provider: "offline",
      reason: "configured",
    });
  });

  it("lists the valid providers for an unknown LLM_PROVIDER", () => {
    const error = configError({ LLM_PROVIDER: "gpt" });
    expect(error.message).toContain('Unknown LLM_PROVIDER "gpt"');
    for (const provider of LLM_PROVIDERS) expect(error.message).toContain(provider);
  });

  it.each([
    ["openai", "OPENAI_API_KEY, OPENAI_MODEL_NAME"],
    [
      "azure-openai",
      "AZURE_OPENAI_API_KEY, AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_DEPLOYMENT, AZURE_OPENAI_API_VERSION",
    ],
    ["anthropic-claude", "ANTHROPIC_API_KEY, ANTHROPIC_MODEL_NAME"],
    ["aws-bedrock", "AWS_BEDROCK_MODEL_ID, AWS_REGION"],
    ["google-gemini", "GOOGLE_API_KEY"],
    ["ollama", "OLLAMA_MODEL"],
  ])("names every missing variable for %s", (provider, missing) => {
    expect(configError({ LLM_PROVIDER: provider }).message).toContain(
      `LLM_PROVIDER=${provider} needs ${missing}:`,
    );
  });

  it("names only what is missing and never repeats a secret", () => {
    const error = configError({
      LLM_PROVIDER: "openai",
      OPENAI_API_KEY: "sk-very-secret",
      OPENAI_MODEL_NAME: "",
    });
    expect(error.message).toContain("needs OPENAI_MODEL_NAME:");
    expect(error.message).not.toContain("OPENAI_API_KEY");
    expect(error.message).not.toContain("sk-very-secret");
    const headers = configError({
      LLM_PROVIDER: "openai",
      OPENAI_API_KEY: "k",
      OPENAI_MODEL_NAME: "m",
      OPENAI_DEFAULT_HEADERS: "Authorization: Bearer top-secret",
    });
    expect(headers.message).toContain("OPENAI_DEFAULT_HEADERS must be a JSON object");
    expect(headers.message).not.toContain("top-secret");
  });

  it("prefers OPENAI_BASE_URL over CAIPE's OPENAI_ENDPOINT and defaults to api.openai.com", () => {
    const base = { LLM_PROVIDER: "openai", OPENAI_API_KEY: "k", OPENAI_MODEL_NAME: "gpt-4o" };
    expect(readLlmSettings(base)).toMatchObject({ baseUrl: "https://api.openai.com/v1" });
    expect(readLlmSettings({ ...base, OPENAI_ENDPOINT: "http://proxy:4000/v1/" })).toMatchObject({
      baseUrl: "http://proxy:4000/v1",
    });
    expect(
      readLlmSettings({ ...base, OPENAI_ENDPOINT: "http://proxy:4000/v1", OPENAI_BASE_URL: "http://gw/v1" }),
    ).toMatchObject({ baseUrl: "http://gw/v1" });
    expect(configError({ ...base, OPENAI_ENDPOINT: "proxy:4000" }).message).toContain(
      "OPENAI_ENDPOINT must be an http(s) URL",
    );
  });

  it("reads OPENAI_USER and OPENAI_DEFAULT_HEADERS like CAIPE", () => {
    const env = {
      LLM_PROVIDER: "openai",
      OPENAI_API_KEY: "k",
      OPENAI_MODEL_NAME: "gpt-4o",
      OPENAI_USER: "platform-team",
      OPENAI_DEFAULT_HEADERS: '{"X-Team":"platform"}',
    };
    expect(readLlmSettings(env)).toMatchObject({
      user: "platform-team",
      defaultHeaders: { "X-Team": "platform" },
    });
  });

  it("uses CAIPE's per-provider temperature, 0.3 by default, and none for reasoning models", () => {
    const openai = { LLM_PROVIDER: "openai", OPENAI_API_KEY: "k", OPENAI_MODEL_NAME: "gpt-4o" };
    expect(readLlmSettings(openai)).toMatchObject({ temperature: 0.3 });
    expect(readLlmSettings({ ...openai, OPENAI_TEMPERATURE: "0.7  # creative" })).toMatchObject({
      temperature: 0.7,
    });
    expect(readLlmSettings({ ...openai, OPENAI_MODEL_NAME: "gpt-5-mini" })).toMatchObject({
      temperature: undefined,
    });
    expect(configError({ ...openai, OPENAI_TEMPERATURE: "hot" }).message).toBe(
      'OPENAI_TEMPERATURE must be a number from 0 to 2, got "hot".',
    );
    const azure = {
      LLM_PROVIDER: "azure-openai",
      AZURE_OPENAI_API_KEY: "k",
      AZURE_OPENAI_ENDPOINT: "https://r.openai.azure.com",
      AZURE_OPENAI_DEPLOYMENT: "gpt-4o",
      AZURE_OPENAI_API_VERSION: "2025-03-01-preview",
      AZURE_TEMPERATURE: "0",
      OPENAI_TEMPERATURE: "1",
    };
    expect(readLlmSettings(azure)).toMatchObject({ temperature: 0 });
  });

  it("takes Bedrock keys as a pair, else the profile", () => {
    const bedrock = { LLM_PROVIDER: "aws-bedrock", AWS_BEDROCK_MODEL_ID: "m", AWS_REGION: "us-east-1" };
    expect(configError({ ...bedrock, AWS_ACCESS_KEY_ID: "AKIA" }).message).toContain(
      "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY together",
    );
    expect(readLlmSettings({ ...bedrock, AWS_PROFILE: "dev" })).toMatchObject({
      profile: "dev",
      credentials: undefined,
    });
    expect(
      readLlmSettings({
        ...bedrock,
        AWS_ACCESS_KEY_ID: "A",
        AWS_SECRET_ACCESS_KEY: "S",
        AWS_SESSION_TOKEN: "T",
      }),
    ).toMatchObject({ credentials: { accessKeyId: "A", secretAccessKey: "S", sessionToken: "T" } });
  });

  it("accepts the model-name aliases, CAIPE's name winning", () => {
    const gemini = { LLM_PROVIDER: "google-gemini", GOOGLE_API_KEY: "k" };
    expect(readLlmSettings(gemini)).toMatchObject({ modelName: "gemini-2.0-flash" });
    expect(readLlmSettings({ ...gemini, GOOGLE_MODEL_NAME: "gemini-2.5-pro" })).toMatchObject({
      modelName: "gemini-2.5-pro",
    });
    expect(
      readLlmSettings({
        ...gemini,
        GOOGLE_MODEL_NAME: "gemini-2.5-pro",
        GOOGLE_GEMINI_MODEL_NAME: "gemini-2.5-flash",
      }),
    ).toMatchObject({ modelName: "gemini-2.5-flash" });
    expect(readLlmSettings({ LLM_PROVIDER: "ollama", OLLAMA_MODEL_NAME: "qwen3" })).toMatchObject({
      modelName: "qwen3",
      baseUrl: "http://localhost:11434",
    });
  });
});
