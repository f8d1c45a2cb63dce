import { httpStatusOf, networkFailureOf, retryAfterMsOf, SwitchboardError } from "@switchboard/common";
import type { LlmProvider } from "./env.js";

/** What went wrong with a model call, in the same terms for every provider. */
export type FailureKind =
  | "auth"
  | "model"
  | "context"
  | "rate-limited"
  | "overloaded"
  | "server"
  | "unreachable"
  | "other";

export interface ProviderFailure {
  kind: FailureKind;
  status?: number;
  /** The wait the provider asked for (Retry-After, retry-after-ms, Gemini's RetryInfo), in ms. */
  retryAfterMs?: number;
}

/** The error codes of the turn-ending errors this package raises (`SwitchboardError.code`). */
export const LLM_ERROR = {
  auth: "llm.auth",
  model: "llm.model_not_found",
  context: "llm.context_too_long",
  busy: "llm.busy",
  failed: "llm.failed",
  timeout: "llm.timeout",
  unreachable: "llm.unreachable",
  filtered: "llm.filtered",
} as const;

/** How a provider is named to people, and the settings that hold its key and model. */
const NAMES: Record<LlmProvider, { label: string; key: string; model: string; url: string }> = {
  openai: { label: "OpenAI", key: "OPENAI_API_KEY", model: "OPENAI_MODEL_NAME", url: "OPENAI_BASE_URL" },
  "azure-openai": {
    label: "Azure OpenAI",
    key: "AZURE_OPENAI_API_KEY",
    model: "AZURE_OPENAI_DEPLOYMENT",
    url: "AZURE_OPENAI_ENDPOINT",
  },
  "anthropic-claude": {
    label: "Anthropic",
    key: "ANTHROPIC_API_KEY",
    model: "ANTHROPIC_MODEL_NAME",
    url: "ANTHROPIC_BASE_URL",
  },
  "aws-bedrock": {
    label: "AWS Bedrock",
    key: "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE), and that they may call bedrock:InvokeModel",
    model: "AWS_BEDROCK_MODEL_ID",
    url: "AWS_ENDPOINT_URL_BEDROCK_RUNTIME",
  },
  "google-gemini": {
    label: "Google Gemini",
    key: "GOOGLE_API_KEY",
    model: "GOOGLE_GEMINI_MODEL_NAME",
    url: "GOOGLE_GEMINI_BASE_URL",
  },
  ollama: {
    label: "Ollama",
    key: "the credentials of the proxy in front of OLLAMA_BASE_URL",
    model: "OLLAMA_MODEL",
    url: "OLLAMA_BASE_URL",
  },
};

/** The provider as a person reads it: "Anthropic (LLM_PROVIDER=anthropic-claude)". */
export function providerLabel(provider: LlmProvider): string {
  return `${NAMES[provider].label} (LLM_PROVIDER=${provider})`;
}

type Loose = Record<string, unknown> & {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  errorDetails?: unknown;
  /** Gemini's error body, as @langchain/google's RequestError carries it: { error: { details } }. */
  data?: { error?: { details?: unknown } };
  cause?: unknown;
};

/** The wait asked for: retry-after-ms or Retry-After (read as every package reads them), else Gemini's RetryInfo. */
function retryAfterMs(e: Loose): number | undefined {
  const asked = retryAfterMsOf(e);
  if (asked !== undefined) return asked;
  // Gemini: a google.rpc.RetryInfo detail, e.g. { retryDelay: "7s" }.
  const details = geminiDetails(e);
  if (details) {
    for (const detail of details) {
      const delay = typeof detail?.retryDelay === "string" ? /^([\d.]+)s$/.exec(detail.retryDelay) : null;
      if (delay) return Number(delay[1]) * 1000;
    }
  }
  return undefined;
}

/** The google.rpc details of a Gemini error (the body's error.details). */
function geminiDetails(e: Loose): Record<string, unknown>[] | undefined {
  const details = e.errorDetails ?? e.data?.error?.details;
  return Array.isArray(details) ? details : undefined;
}

function geminiReason(e: Loose): string | undefined {
  const info = geminiDetails(e)?.find((d) => typeof d?.reason === "string");
  return info?.reason as string | undefined;
}

const TOO_LONG =
  /context[_ ]length|maximum context|prompt is too long|input is too long|too many (input )?tokens|exceeds? the (maximum|context)|input token count|context limit|context window/i;
const NO_MODEL =
  /model identifier is invalid|model.*(not found|does not exist)|not found.*model|unknown model/i;
/** Sorts a provider SDK's error (OpenAI, Anthropic, AWS, Google and Ollama clients) into one kind. */
export function classifyFailure(error: unknown): ProviderFailure {
  if (typeof error !== "object" || error === null) return { kind: "other" };
  const e = error as Loose;
  const status = httpStatusOf(e);
  const name = typeof e.name === "string" ? e.name : "";
  const message = typeof e.message === "string" ? e.message : "";
  const code = typeof e.code === "string" ? e.code : "";
  const wait = retryAfterMs(e);
  const withStatus = (kind: FailureKind): ProviderFailure => ({
    kind,
    ...(status === undefined ? {} : { status }),
    ...(wait === undefined ? {} : { retryAfterMs: wait }),
  });
  // LangChain wraps a provider's context-length error in ContextOverflowError, the provider's as its cause.
  if (name === "ContextOverflowError") {
    const cause = classifyFailure(e.cause);
    return { ...cause, kind: "context" };
  }
  if (name === "ThrottlingException" || status === 429) return withStatus("rate-limited");
  if (
    status === 529 ||
    status === 503 ||
    /overloaded|ServiceUnavailableException|ModelNotReadyException/.test(name + code)
  )
    return withStatus("overloaded");
  if (
    status === 401 ||
    geminiReason(e) === "API_KEY_INVALID" ||
    /UnrecognizedClientException|InvalidSignatureException|ExpiredToken|MissingAuthenticationToken/.test(name)
  )
    return withStatus("auth");
  if (code === "context_length_exceeded" || ((status === 400 || status === 413) && TOO_LONG.test(message)))
    return withStatus("context");
  if (status === 404 || name === "ResourceNotFoundException" || (status === 400 && NO_MODEL.test(message)))
    return withStatus("model");
  if (status === 403) return withStatus("auth");
  if (status !== undefined && status >= 500) return withStatus("server");
  if (status === 408 || name === "ModelTimeoutException") return withStatus("server");
  if (networkFailureOf(error)) return { kind: "unreachable" };
  return withStatus("other");
}

/** True for failures worth another attempt: rate limits, overload and the provider's own 5xx. */
export function isRetryable(failure: ProviderFailure): boolean {
  return failure.kind === "rate-limited" || failure.kind === "overloaded" || failure.kind === "server";
}

function http(failure: ProviderFailure): string {
  return failure.status === undefined ? "" : ` (HTTP ${failure.status})`;
}

function seconds(ms: number): string {
  return `${Math.max(1, Math.ceil(ms / 1000))} s`;
}

/** When to try again, as a clock time and a wait: "after 04:31:05 UTC (in 30 s)". */
export function tryAgainAt(waitMs: number, now = Date.now()): string {
  const at = new Date(now + waitMs).toISOString().slice(11, 19);
  return `after ${at} UTC (in ${seconds(waitMs)})`;
}

/**
 * The turn-ending error for a failure that is not retried (or no longer): it names the provider and the
 * setting to change, and never repeats the provider's own message (some quote part of the key).
 */
export function failureError(
  provider: LlmProvider,
  modelName: string,
  failure: ProviderFailure,
  retried = 0,
): SwitchboardError {
  const names = NAMES[provider];
  const who = providerLabel(provider);
  switch (failure.kind) {
    case "auth":
      return new SwitchboardError(
        LLM_ERROR.auth,
        "user",
        `${who} refused the credentials${http(failure)}: check ${names.key}.`,
      );
    case "model":
      return new SwitchboardError(
        LLM_ERROR.model,
        "user",
        `${who} has no model "${modelName}" that these credentials may use${http(failure)}: set ${names.model} to a model the account has (and check ${names.url} if it points at a gateway).`,
      );
    case "context":
      return new SwitchboardError(
        LLM_ERROR.context,
        "user",
        `This conversation is too long for ${modelName} on ${who}${http(failure)}: start a new conversation, or set MAX_CONTEXT_TOKENS below the model's context window so older messages are summarized.`,
      );
    case "rate-limited":
    case "overloaded": {
      const what = failure.kind === "rate-limited" ? "is rate-limiting this agent" : "is overloaded";
      const tries =
        retried > 0 ? ` after ${retried} ${retried === 1 ? "retry" : "retries"} (LLM_MAX_RETRIES)` : "";
      const when =
        failure.retryAfterMs === undefined ? "in a minute or so" : tryAgainAt(failure.retryAfterMs);
      return new SwitchboardError(
        LLM_ERROR.busy,
        "third-party",
        `${who} ${what}${http(failure)}${tries}: try again ${when}.`,
      );
    }
    case "unreachable":
      return new SwitchboardError(
        LLM_ERROR.unreachable,
        "user",
        `${who} cannot be reached: check ${names.url} (or the network and proxy settings) and that the provider is up.`,
      );
    case "server":
      return new SwitchboardError(
        LLM_ERROR.failed,
        "third-party",
        `${who} failed${http(failure)}${retried > 0 ? ` ${retried + 1} times` : ""}: try again shortly.`,
      );
    default:
      return new SwitchboardError(
        LLM_ERROR.failed,
        "third-party",
        `${who} rejected the request${http(failure)}: try again; if it keeps failing, check the agent's log.`,
      );
  }
}

/** A Retry-After longer than the time the call has left: the turn ends at once, saying when to retry. */
export function waitTooLongError(provider: LlmProvider, failure: ProviderFailure, waitMs: number) {
  const what = failure.kind === "rate-limited" ? "is rate-limiting this agent" : "is overloaded";
  return new SwitchboardError(
    LLM_ERROR.busy,
    "third-party",
    `${providerLabel(provider)} ${what}${http(failure)} and asks to wait ${seconds(waitMs)}, longer than LLM_TIMEOUT_SECONDS allows: try again ${tryAgainAt(waitMs)}.`,
  );
}

export function timeoutError(provider: LlmProvider, timeoutMs: number): SwitchboardError {
  return new SwitchboardError(
    LLM_ERROR.timeout,
    "third-party",
    `${providerLabel(provider)} did not answer within LLM_TIMEOUT_SECONDS=${timeoutMs / 1000}: try again, or raise LLM_TIMEOUT_SECONDS for slow models.`,
  );
}

/** Why a provider withheld an answer, as its API says it: finish_reason, stop_reason, finishReason. */
export function filteredError(provider: LlmProvider, reason: string): SwitchboardError {
  const refused = /refusal/i.test(reason);
  const what = refused ? "declined to answer" : "withheld the answer: its content filter stopped it";
  const fix =
    provider === "aws-bedrock"
      ? "rephrase the request; if it should be allowed, review the Bedrock guardrail or the model's content filters"
      : provider === "azure-openai"
        ? "rephrase the request; if it should be allowed, review the deployment's content filter in Azure AI Foundry"
        : provider === "google-gemini"
          ? "rephrase the request; if it should be allowed, review the safety settings of the Gemini API key's project"
          : "rephrase the request";
  return new SwitchboardError(
    LLM_ERROR.filtered,
    "user",
    `${providerLabel(provider)} ${what} (${reason}): ${fix}.`,
  );
}

/** The stop reasons that mean the provider refused or filtered the answer. */
const FILTERED: Record<string, RegExp> = {
  finish_reason: /^content_filter$/,
  stop_reason: /^refusal$/,
  finishReason: /^(SAFETY|PROHIBITED_CONTENT|BLOCKLIST|SPII|IMAGE_SAFETY)$/,
  stopReason: /^(guardrail_intervened|content_filtered)$/,
};

/** "stop_reason: refusal" when a reply's metadata says the provider refused or filtered it. */
export function filteredReason(metadata: Record<string, unknown> | undefined): string | undefined {
  if (!metadata) return undefined;
  for (const [field, pattern] of Object.entries(FILTERED)) {
    const value = metadata[field];
    if (typeof value === "string" && pattern.test(value)) return `${field}: ${value}`;
  }
  // Bedrock's streamed stop reason is in its messageStop event.
  const stop = metadata.messageStop;
  return stop && typeof stop === "object" ? filteredReason(stop as Record<string, unknown>) : undefined;
}
