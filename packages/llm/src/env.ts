import { parseEnv, SwitchboardError } from "@switchboard/common";
import { z } from "zod";

/** The providers `LLM_PROVIDER` accepts, spelled as CAIPE's cnoe-agent-utils `LLMFactory` spells them. */
export const LLM_PROVIDERS = [
  "openai",
  "azure-openai",
  "anthropic-claude",
  "aws-bedrock",
  "google-gemini",
  "ollama",
] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

/** CAIPE's default temperature for tool-calling agents when the provider's `*_TEMPERATURE` is unset. */
export const DEFAULT_TEMPERATURE = 0.3;

const text = z.string().trim().min(1).optional();

/** Every variable this package reads. Names are CAIPE's unless marked as a Switchboard addition. */
const LlmEnv = z.object({
  LLM_PROVIDER: text,
  // openai
  OPENAI_API_KEY: text,
  OPENAI_BASE_URL: text, // the contract's and the OpenAI SDK's own name; wins over OPENAI_ENDPOINT
  OPENAI_ENDPOINT: text,
  OPENAI_MODEL_NAME: text,
  OPENAI_USER: text,
  OPENAI_DEFAULT_HEADERS: text,
  OPENAI_TEMPERATURE: text,
  // azure-openai
  AZURE_OPENAI_API_KEY: text,
  AZURE_OPENAI_ENDPOINT: text,
  AZURE_OPENAI_DEPLOYMENT: text,
  AZURE_OPENAI_API_VERSION: text,
  AZURE_TEMPERATURE: text,
  // anthropic-claude
  ANTHROPIC_API_KEY: text,
  ANTHROPIC_MODEL_NAME: text,
  ANTHROPIC_BASE_URL: text, // Switchboard addition (the Anthropic SDK's name), for proxies and tests
  ANTHROPIC_TEMPERATURE: text,
  ANTHROPIC_ENABLE_PROMPT_CACHE: text, // Switchboard addition, after CAIPE's AWS_BEDROCK_ENABLE_PROMPT_CACHE
  // aws-bedrock
  AWS_BEDROCK_MODEL_ID: text,
  AWS_REGION: text,
  AWS_ACCESS_KEY_ID: text,
  AWS_SECRET_ACCESS_KEY: text,
  AWS_SESSION_TOKEN: text,
  AWS_PROFILE: text,
  AWS_ENDPOINT_URL: text, // the contract's AWS row (e.g. a local emulator)
  AWS_ENDPOINT_URL_BEDROCK_RUNTIME: text, // the AWS SDK's service-specific name; wins over AWS_ENDPOINT_URL
  BEDROCK_TEMPERATURE: text,
  AWS_BEDROCK_ENABLE_PROMPT_CACHE: text,
  // google-gemini
  GOOGLE_API_KEY: text,
  GOOGLE_GEMINI_MODEL_NAME: text,
  GOOGLE_MODEL_NAME: text, // Switchboard alias; GOOGLE_GEMINI_MODEL_NAME wins
  GOOGLE_TEMPERATURE: text,
  GOOGLE_GEMINI_BASE_URL: text, // Switchboard addition (Google's Gen AI SDKs' name), for gateways and tests
  // ollama (CAIPE has no native Ollama provider; these are Ollama's conventional names)
  OLLAMA_BASE_URL: text,
  OLLAMA_MODEL: text,
  OLLAMA_MODEL_NAME: text, // alias in CAIPE's *_MODEL_NAME style; OLLAMA_MODEL wins
  OLLAMA_TEMPERATURE: text,
  // every provider (Switchboard additions: CAIPE's factory has no provider-wide timeout or retry setting)
  LLM_TIMEOUT_SECONDS: text,
  LLM_MAX_RETRIES: text,
});
type LlmEnvVars = z.infer<typeof LlmEnv>;

/** Every variable this package reads (each may also be set for one agent alone, see agent-env.ts). */
export const LLM_VARIABLES = Object.keys(LlmEnv.shape) as readonly (keyof LlmEnvVars)[];
type Variable = keyof LlmEnvVars;

/** LLM_TIMEOUT_SECONDS when unset: the most one model call may take, retries and their waits included. */
export const DEFAULT_TIMEOUT_SECONDS = 120;
/** LLM_MAX_RETRIES when unset: further attempts after a rate limit, an overload or a provider error. */
export const DEFAULT_MAX_RETRIES = 3;

interface Common {
  modelName: string;
  /** LLM_TIMEOUT_SECONDS in ms: one model call's limit, its retries included. */
  timeoutMs: number;
  /** LLM_MAX_RETRIES. */
  maxRetries: number;
  /** Undefined: the provider's own default (reasoning models reject a temperature). */
  temperature: number | undefined;
}

export type LlmSettings =
  | { provider: "offline"; reason: "unset" | "configured" }
  | (Common & {
      provider: "openai";
      apiKey: string;
      baseUrl: string;
      user?: string;
      defaultHeaders?: Record<string, string>;
    })
  | (Common & {
      provider: "azure-openai";
      apiKey: string;
      endpoint: string;
      deployment: string;
      apiVersion: string;
    })
  | (Common & { provider: "anthropic-claude"; apiKey: string; baseUrl: string; promptCache: boolean })
  | (Common & {
      provider: "aws-bedrock";
      region: string;
      credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
      profile?: string;
      endpointUrl?: string;
      promptCache: boolean;
    })
  | (Common & { provider: "google-gemini"; apiKey: string; baseUrl?: string })
  | (Common & { provider: "ollama"; baseUrl: string });

export type ProviderSettings = Exclude<LlmSettings, { provider: "offline" }>;

function configError(message: string): SwitchboardError {
  return new SwitchboardError("llm.config", "user", message);
}

function requireVars<K extends Variable>(
  e: LlmEnvVars,
  provider: LlmProvider,
  names: K[],
): { [P in K]: string } {
  const missing = names.filter((name) => !e[name]);
  if (missing.length > 0) {
    throw configError(
      `LLM_PROVIDER=${provider} needs ${missing.join(", ")}: set ${missing.length > 1 ? "them" : "it"} in the environment or .env file ` +
        "(or unset LLM_PROVIDER to run in offline mode without an LLM).",
    );
  }
  return Object.fromEntries(names.map((name) => [name, e[name]])) as { [P in K]: string };
}

// URL values are not echoed: proxies sometimes carry credentials in them.
function httpUrl(value: string, variable: Variable): string {
  const parsed = z.url({ protocol: /^https?$/ }).safeParse(value);
  if (!parsed.success) {
    throw configError(`${variable} must be an http(s) URL such as https://example.com/v1.`);
  }
  return value.replace(/\/+$/, "");
}

// Models that reject any temperature but their default (OpenAI reasoning models), as CAIPE special-cases gpt-5.
const REASONING_MODEL = /^(gpt-5|o\d)/i;

function temperature(value: string | undefined, variable: Variable, modelName: string): number | undefined {
  if (value === undefined) return REASONING_MODEL.test(modelName) ? undefined : DEFAULT_TEMPERATURE;
  const parsed = z.coerce.number().min(0).max(2).safeParse(value.split("#")[0]?.trim());
  if (!parsed.success) throw configError(`${variable} must be a number from 0 to 2, got "${value}".`);
  return parsed.data;
}

function jsonHeaders(value: string | undefined): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  const parsed = z
    .string()
    .transform((raw, ctx) => {
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "not JSON" });
        return z.NEVER;
      }
    })
    .pipe(z.record(z.string(), z.string()))
    .safeParse(value);
  // The headers may hold credentials, so the value is never repeated.
  if (!parsed.success) {
    throw configError('OPENAI_DEFAULT_HEADERS must be a JSON object of strings, e.g. {"X-Team":"platform"}.');
  }
  return parsed.data;
}

function flag(value: string | undefined, variable: Variable, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw configError(`${variable} must be true or false, got "${value}".`);
}

// AWS_ENDPOINT_URL_BEDROCK_RUNTIME lets Bedrock go to a gateway or test server while AWS_ENDPOINT_URL
// (an agent's own AWS APIs, e.g. moto) points elsewhere.
function bedrockEndpoint(e: LlmEnvVars): string | undefined {
  if (e.AWS_ENDPOINT_URL_BEDROCK_RUNTIME)
    return httpUrl(e.AWS_ENDPOINT_URL_BEDROCK_RUNTIME, "AWS_ENDPOINT_URL_BEDROCK_RUNTIME");
  return e.AWS_ENDPOINT_URL ? httpUrl(e.AWS_ENDPOINT_URL, "AWS_ENDPOINT_URL") : undefined;
}

type WithoutBounds<S> = S extends unknown ? Omit<S, "timeoutMs" | "maxRetries"> : never;

function callBounds(e: LlmEnvVars): { timeoutMs: number; maxRetries: number } {
  const timeout = z.coerce
    .number()
    .positive()
    .max(3600)
    .safeParse(e.LLM_TIMEOUT_SECONDS ?? DEFAULT_TIMEOUT_SECONDS);
  if (!timeout.success)
    throw configError(
      `LLM_TIMEOUT_SECONDS must be a number of seconds from 1 to 3600, got "${e.LLM_TIMEOUT_SECONDS}".`,
    );
  const retries = z.coerce
    .number()
    .int()
    .min(0)
    .max(10)
    .safeParse(e.LLM_MAX_RETRIES ?? DEFAULT_MAX_RETRIES);
  if (!retries.success)
    throw configError(`LLM_MAX_RETRIES must be a whole number from 0 to 10, got "${e.LLM_MAX_RETRIES}".`);
  return { timeoutMs: timeout.data * 1000, maxRetries: retries.data };
}

function providerSettings(provider: LlmProvider, e: LlmEnvVars): WithoutBounds<ProviderSettings> {
  switch (provider) {
    case "openai": {
      const v = requireVars(e, provider, ["OPENAI_API_KEY", "OPENAI_MODEL_NAME"]);
      const baseUrlVariable = e.OPENAI_BASE_URL ? "OPENAI_BASE_URL" : "OPENAI_ENDPOINT";
      return {
        provider,
        apiKey: v.OPENAI_API_KEY,
        modelName: v.OPENAI_MODEL_NAME,
        baseUrl: httpUrl(
          e.OPENAI_BASE_URL ?? e.OPENAI_ENDPOINT ?? "https://api.openai.com/v1",
          baseUrlVariable,
        ),
        temperature: temperature(e.OPENAI_TEMPERATURE, "OPENAI_TEMPERATURE", v.OPENAI_MODEL_NAME),
        user: e.OPENAI_USER,
        defaultHeaders: jsonHeaders(e.OPENAI_DEFAULT_HEADERS),
      };
    }
    case "azure-openai": {
      const v = requireVars(e, provider, [
        "AZURE_OPENAI_API_KEY",
        "AZURE_OPENAI_ENDPOINT",
        "AZURE_OPENAI_DEPLOYMENT",
        "AZURE_OPENAI_API_VERSION",
      ]);
      return {
        provider,
        apiKey: v.AZURE_OPENAI_API_KEY,
        endpoint: httpUrl(v.AZURE_OPENAI_ENDPOINT, "AZURE_OPENAI_ENDPOINT"),
        deployment: v.AZURE_OPENAI_DEPLOYMENT,
        apiVersion: v.AZURE_OPENAI_API_VERSION,
        modelName: v.AZURE_OPENAI_DEPLOYMENT,
        temperature: temperature(e.AZURE_TEMPERATURE, "AZURE_TEMPERATURE", v.AZURE_OPENAI_DEPLOYMENT),
      };
    }
    case "anthropic-claude": {
      const v = requireVars(e, provider, ["ANTHROPIC_API_KEY", "ANTHROPIC_MODEL_NAME"]);
      return {
        provider,
        apiKey: v.ANTHROPIC_API_KEY,
        modelName: v.ANTHROPIC_MODEL_NAME,
        baseUrl: httpUrl(e.ANTHROPIC_BASE_URL ?? "https://api.anthropic.com", "ANTHROPIC_BASE_URL"),
        temperature: temperature(e.ANTHROPIC_TEMPERATURE, "ANTHROPIC_TEMPERATURE", v.ANTHROPIC_MODEL_NAME),
        promptCache: flag(e.ANTHROPIC_ENABLE_PROMPT_CACHE, "ANTHROPIC_ENABLE_PROMPT_CACHE", true),
      };
    }
    case "aws-bedrock": {
      const v = requireVars(e, provider, ["AWS_BEDROCK_MODEL_ID", "AWS_REGION"]);
      if (Boolean(e.AWS_ACCESS_KEY_ID) !== Boolean(e.AWS_SECRET_ACCESS_KEY)) {
        throw configError(
          "LLM_PROVIDER=aws-bedrock: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY together " +
            "(or neither, to use AWS_PROFILE or the default AWS credential chain).",
        );
      }
      return {
        provider,
        modelName: v.AWS_BEDROCK_MODEL_ID,
        region: v.AWS_REGION,
        credentials:
          e.AWS_ACCESS_KEY_ID && e.AWS_SECRET_ACCESS_KEY
            ? {
                accessKeyId: e.AWS_ACCESS_KEY_ID,
                secretAccessKey: e.AWS_SECRET_ACCESS_KEY,
                ...(e.AWS_SESSION_TOKEN ? { sessionToken: e.AWS_SESSION_TOKEN } : {}),
              }
            : undefined,
        profile: e.AWS_ACCESS_KEY_ID ? undefined : e.AWS_PROFILE,
        endpointUrl: bedrockEndpoint(e),
        promptCache: flag(e.AWS_BEDROCK_ENABLE_PROMPT_CACHE, "AWS_BEDROCK_ENABLE_PROMPT_CACHE", false),
        temperature: temperature(e.BEDROCK_TEMPERATURE, "BEDROCK_TEMPERATURE", v.AWS_BEDROCK_MODEL_ID),
      };
    }
    case "google-gemini": {
      const v = requireVars(e, provider, ["GOOGLE_API_KEY"]);
      const modelName = e.GOOGLE_GEMINI_MODEL_NAME ?? e.GOOGLE_MODEL_NAME ?? "gemini-2.0-flash";
      return {
        provider,
        apiKey: v.GOOGLE_API_KEY,
        baseUrl: e.GOOGLE_GEMINI_BASE_URL
          ? httpUrl(e.GOOGLE_GEMINI_BASE_URL, "GOOGLE_GEMINI_BASE_URL")
          : undefined,
        modelName,
        temperature: temperature(e.GOOGLE_TEMPERATURE, "GOOGLE_TEMPERATURE", modelName),
      };
    }
    case "ollama": {
      const modelName = e.OLLAMA_MODEL ?? e.OLLAMA_MODEL_NAME;
      if (!modelName) requireVars(e, provider, ["OLLAMA_MODEL"]);
      return {
        provider,
        modelName: modelName as string,
        baseUrl: httpUrl(e.OLLAMA_BASE_URL ?? "http://localhost:11434", "OLLAMA_BASE_URL"),
        temperature: temperature(e.OLLAMA_TEMPERATURE, "OLLAMA_TEMPERATURE", modelName as string),
      };
    }
  }
}

/**
 * Reads the LLM settings from the environment (default `process.env`), once per call.
 * `LLM_PROVIDER` unset or `offline` selects the offline model. Throws a `user` SwitchboardError that names
 * the variables to set; secret values are never part of a message.
 */
export function readLlmSettings(env: NodeJS.ProcessEnv = process.env): LlmSettings {
  // Empty strings in env files mean "unset", as they do for CAIPE's Python settings.
  const e = parseEnv(LlmEnv, env, { code: "llm.config", what: "LLM settings" });
  const requested = e.LLM_PROVIDER?.toLowerCase();
  if (requested === undefined) return { provider: "offline", reason: "unset" };
  if (requested === "offline") return { provider: "offline", reason: "configured" };
  const provider = LLM_PROVIDERS.find((name) => name === requested);
  if (!provider) {
    throw configError(
      `Unknown LLM_PROVIDER "${e.LLM_PROVIDER}": use one of ${LLM_PROVIDERS.join(", ")} ` +
        "(or leave it unset, or set it to offline, to run without an LLM).",
    );
  }
  return { ...providerSettings(provider, e), ...callBounds(e) } as ProviderSettings;
}
