import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { readAgentLlmSettings } from "./agent-env.js";
import { withAlternatingTurns } from "./bedrock-turns.js";
import { boundedCalls } from "./bounded-calls.js";
import type { LlmProvider, ProviderSettings } from "./env.js";
import { OfflineChatModel } from "./offline.js";

export interface ChatModelChoice {
  /** The `LLM_PROVIDER` value in use, or `offline`. */
  provider: LlmProvider | "offline";
  /** The model, deployment or model id the provider will be asked for (`offline` in offline mode). */
  modelName: string;
  model: BaseChatModel;
  /** True when no LLM is configured and `model` is the deterministic {@link OfflineChatModel}. */
  offline: boolean;
}

export interface CreateChatModelOptions {
  /** Where settings are read from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** The agent the model is for: its `<AGENT>_…` variables win over the shared ones (see agent-env.ts). */
  agent?: string;
}

const CACHE_CONTROL = { type: "ephemeral" } as const;

// Every endpoint, key and model is passed explicitly, so the provider SDKs never fill gaps from process.env
// behind the caller's back (which would make `options.env` lie). Only the chosen provider's package is
// loaded: together they hold about 25 MB of an agent's memory. Retries and timeouts are Switchboard's own
// (bounded-calls.ts, one policy for all): every client's own retries are off (maxRetries: 0, and
// maxAttempts: 1 for the AWS SDK).
async function providerModel(s: ProviderSettings): Promise<BaseChatModel> {
  const bounds = {
    provider: s.provider,
    modelName: s.modelName,
    timeoutMs: s.timeoutMs,
    maxRetries: s.maxRetries,
  };
  switch (s.provider) {
    case "openai": {
      const { ChatOpenAI } = await import("@langchain/openai");
      return new (boundedCalls(ChatOpenAI, bounds))({
        maxRetries: 0,
        model: s.modelName,
        apiKey: s.apiKey,
        temperature: s.temperature,
        user: s.user,
        // `streaming` stays unset: `true` makes every invoke count tokens with a tokenizer fetched from the
        // internet, `false` turns .stream() into one chunk. Unset, .stream() and LangGraph's "messages" mode
        // stream token by token and invoke() never counts.
        configuration: { baseURL: s.baseUrl, defaultHeaders: s.defaultHeaders },
      });
    }
    case "azure-openai": {
      const { AzureChatOpenAI } = await import("@langchain/openai");
      return new (boundedCalls(AzureChatOpenAI, bounds))({
        maxRetries: 0,
        model: s.deployment,
        azureOpenAIApiKey: s.apiKey,
        azureOpenAIEndpoint: s.endpoint,
        azureOpenAIApiDeploymentName: s.deployment,
        azureOpenAIApiVersion: s.apiVersion,
        temperature: s.temperature,
      });
    }
    case "anthropic-claude": {
      const { ChatAnthropic } = await import("@langchain/anthropic");
      // Prompt caching: every call carries Anthropic's top-level cache_control, which puts the cache
      // breakpoint on the last block and moves it as the conversation grows (tools and system included).
      class CachingChatAnthropic extends ChatAnthropic {
        override invocationParams(options?: this["ParsedCallOptions"]) {
          return super.invocationParams({
            ...options,
            cache_control: options?.cache_control ?? CACHE_CONTROL,
          } as this["ParsedCallOptions"]);
        }
      }
      const Chat = boundedCalls(s.promptCache ? CachingChatAnthropic : ChatAnthropic, bounds);
      return new Chat({
        maxRetries: 0,
        model: s.modelName,
        apiKey: s.apiKey,
        anthropicApiUrl: s.baseUrl,
        temperature: s.temperature,
      });
    }
    case "aws-bedrock": {
      const { ChatBedrockConverse } = await import("@langchain/aws");
      const { BedrockRuntimeClient } = await import("@aws-sdk/client-bedrock-runtime");
      // AWS_BEDROCK_ENABLE_PROMPT_CACHE: a cache point after the system prompt, the tools and the
      // conversation (ChatBedrockConverse's cache_control call option), where the model supports one.
      class CachingChatBedrockConverse extends ChatBedrockConverse {
        override _generate(
          ...[messages, options, runManager]: Parameters<
            InstanceType<typeof ChatBedrockConverse>["_generate"]
          >
        ) {
          return super._generate(
            messages,
            { ...options, cache_control: options.cache_control ?? CACHE_CONTROL },
            runManager,
          );
        }
        override _streamResponseChunks(
          ...[messages, options, runManager]: Parameters<
            InstanceType<typeof ChatBedrockConverse>["_streamResponseChunks"]
          >
        ) {
          return super._streamResponseChunks(
            messages,
            { ...options, cache_control: options.cache_control ?? CACHE_CONTROL },
            runManager,
          );
        }
      }
      const Chat = boundedCalls(
        withAlternatingTurns(s.promptCache ? CachingChatBedrockConverse : ChatBedrockConverse),
        bounds,
      );
      return new Chat({
        model: s.modelName,
        region: s.region,
        temperature: s.temperature,
        ...(s.credentials ? { credentials: s.credentials } : {}),
        ...(s.profile ? { profile: s.profile } : {}),
        // One attempt per call: the retries are bounded-calls'.
        clientOptions: { maxAttempts: 1 },
        // ChatBedrockConverse only takes an https host name; an emulator's http URL needs our own client.
        ...(s.endpointUrl
          ? {
              client: new BedrockRuntimeClient({
                region: s.region,
                endpoint: s.endpointUrl,
                maxAttempts: 1,
                ...(s.credentials ? { credentials: s.credentials } : {}),
                ...(s.profile ? { profile: s.profile } : {}),
              }),
            }
          : {}),
      });
    }
    case "google-gemini": {
      // The Gemini API (platform "gai") with the key, never Vertex AI or a gateway chosen from the environment.
      const { ChatGoogle } = await import("@langchain/google");
      return new (boundedCalls(ChatGoogle, bounds))({
        maxRetries: 0,
        model: s.modelName,
        apiKey: s.apiKey,
        platformType: "gai",
        temperature: s.temperature,
        ...(s.baseUrl ? { endpoint: s.baseUrl } : {}),
      });
    }
    case "ollama": {
      const { ChatOllama } = await import("@langchain/ollama");
      return new (boundedCalls(ChatOllama, bounds))({
        model: s.modelName,
        baseUrl: s.baseUrl,
        temperature: s.temperature,
        maxRetries: 0,
      });
    }
  }
}

/**
 * The chat model the environment asks for (`LLM_PROVIDER` and the provider's variables, see the README),
 * with `options.agent`'s own `<AGENT>_…` overrides applied.
 * With `LLM_PROVIDER` unset or `offline`, the deterministic {@link OfflineChatModel}; check `offline` to tell
 * the user. Throws a `user` SwitchboardError naming the variables to fix.
 */
export async function createChatModel(options: CreateChatModelOptions = {}): Promise<ChatModelChoice> {
  const settings = readAgentLlmSettings(options.env ?? process.env, options.agent);
  if (settings.provider === "offline") {
    return { provider: "offline", modelName: "offline", model: new OfflineChatModel(), offline: true };
  }
  return {
    provider: settings.provider,
    modelName: settings.modelName,
    model: await providerModel(settings),
    offline: false,
  };
}
