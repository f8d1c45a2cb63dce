/** The JSON body OpenAI sends with every error response. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export interface LlmHttpErrorOptions {
  type?: string;
  code?: string | null;
  param?: string | null;
  /** Sent as `retry-after` (seconds); clients use it to pace retries of 429s. */
  retryAfterSeconds?: number;
}

// The type/code OpenAI itself uses for each status, so clients classify our errors as they would real ones.
const DEFAULTS: Record<number, { type: string; code: string | null }> = {
  400: { type: "invalid_request_error", code: null },
  401: { type: "invalid_request_error", code: "invalid_api_key" },
  403: { type: "invalid_request_error", code: "unsupported_country_region_territory" },
  404: { type: "invalid_request_error", code: "model_not_found" },
  429: { type: "requests", code: "rate_limit_exceeded" },
  500: { type: "server_error", code: null },
  503: { type: "server_error", code: null },
};

/** An error response the scripted server sends instead of a completion (e.g. 401, 429, 500). */
export class LlmHttpError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string | null;
  readonly param: string | null;
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, message: string, options: LlmHttpErrorOptions = {}) {
    super(message);
    this.name = "LlmHttpError";
    this.status = status;
    const fallback = DEFAULTS[status] ?? {
      type: status >= 500 ? "server_error" : "invalid_request_error",
      code: null,
    };
    this.type = options.type ?? fallback.type;
    this.code = options.code === undefined ? fallback.code : options.code;
    this.param = options.param ?? null;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  toBody(): OpenAiErrorBody {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

/** Shorthand for scripts: `throw httpError(429, "Rate limit reached")`. */
export function httpError(status: number, message: string, options?: LlmHttpErrorOptions): LlmHttpError {
  return new LlmHttpError(status, message, options);
}

/**
 * The model named does not exist, as OpenAI says it (404 `model_not_found`); every dialect sends it in
 * its provider's own form (Anthropic's not_found_error, Bedrock's ValidationException, Gemini's NOT_FOUND,
 * Ollama's "not found, try pulling it first").
 */
export function unknownModel(model: string): LlmHttpError {
  return new LlmHttpError(404, `The model \`${model}\` does not exist or you do not have access to it.`, {
    code: "model_not_found",
  });
}

/**
 * The request is longer than the model's context window, as OpenAI says it (400
 * `context_length_exceeded`); every dialect sends it in its provider's own form.
 */
export function contextTooLong(tokens: number, limit: number): LlmHttpError {
  return new LlmHttpError(
    400,
    `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
    { code: "context_length_exceeded", param: "messages", type: "invalid_request_error" },
  );
}

/** The numbers in a `contextTooLong` message, for the dialects' own wording of it. */
export function contextNumbers(error: LlmHttpError): { tokens: number; limit: number } {
  const [limit = 0, tokens = 0] = (error.message.match(/\d+/g) ?? []).map(Number);
  return { tokens, limit };
}

/**
 * Turns whatever a script threw into the response to send: `LlmHttpError` and plain `{ status, message }`
 * objects keep their status. Anything else is a bug in the script: it becomes a 400, not a 500, because
 * clients retry 5xx with backoff for a minute or more and the test would time out instead of failing
 * with this message.
 */
export function toLlmHttpError(thrown: unknown): LlmHttpError {
  if (thrown instanceof LlmHttpError) return thrown;
  if (typeof thrown === "object" && thrown !== null && "status" in thrown) {
    const { status } = thrown;
    if (typeof status === "number" && status >= 400 && status <= 599) {
      const message =
        "message" in thrown && typeof thrown.message === "string" ? thrown.message : `HTTP ${status}`;
      return new LlmHttpError(status, message);
    }
  }
  const detail = thrown instanceof Error ? thrown.message : String(thrown);
  return new LlmHttpError(
    400,
    `The test-llm script failed: ${detail}. Fix the script, or throw httpError(status, message) to simulate a provider failure.`,
    { type: "test_llm_script_error", code: "test_llm_script_error" },
  );
}
