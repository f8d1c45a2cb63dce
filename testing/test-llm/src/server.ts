import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttp2Server } from "node:http2";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { chatCompletion, completionChunks, completionId, resolveReply, usageFor } from "./completion.js";
import { type RecordedCall, serveDialect } from "./dialects/index.js";
import { dualProtocolListener } from "./dialects/listen.js";
import { type ProviderName, providerEnv } from "./dialects/provider-env.js";
import { jsonOrText, serveEmbeddings } from "./embeddings.js";
import { LlmHttpError, toLlmHttpError } from "./errors.js";
import { tokenCount, writePaced } from "./pacing.js";
import type { ChatCompletionRequest, Script } from "./types.js";

export type { ChatCompletionRequest, ChatMessage, Script, ScriptReply, ScriptToolCall } from "./types.js";

export interface ScriptedLlmOptions {
  /** Decides every reply. See `@switchboard-testing/test-llm/rules` for ready-made scripts. */
  script: Script;
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  /** Delay before each response starts, to make benchmarks resemble a real provider. Default 0. */
  latencyMs?: number;
  /**
   * Time between a streamed reply's tokens (after `latencyMs`, the time to the first), as a model
   * writes; a reply that is not streamed arrives when its last token would have. Default 0.
   */
  tokenIntervalMs?: number;
  /** When set, only `Authorization: Bearer <apiKey>` is accepted; otherwise any bearer key is. */
  apiKey?: string;
  /** Ids listed by `GET /v1/models`. Default `["gpt-4o-mini"]`. */
  models?: string[];
  /** Larger request bodies get 413. Default 20 MB; raise it for conversations sent whole past that. */
  maxBodyBytes?: number;
  /**
   * Keep every request in `requests`, `calls` and `embeddingCalls`. Default true; a benchmark
   * serving thousands of turns passes false, so the log does not grow its process's heap.
   */
  record?: boolean;
}

export interface ScriptedLlm {
  /** Base URL ending in `/v1`: the value for `OPENAI_BASE_URL` / ChatOpenAI `configuration.baseURL`. */
  url: string;
  /**
   * `http://127.0.0.1:<port>`: the value for `AZURE_OPENAI_ENDPOINT` / AzureChatOpenAI `azureOpenAIEndpoint`,
   * served as `POST /openai/deployments/{deployment}/chat/completions?api-version=…`.
   */
  azureEndpoint: string;
  port: number;
  /** The settings that point an agent's LLM factory here: `LLM_PROVIDER=openai` and friends. */
  env: Record<string, string>;
  /**
   * Every request the script saw, oldest first (failed ones included), in OpenAI's chat-completion form
   * whichever provider protocol it came in.
   */
  requests: ChatCompletionRequest[];
  /** The same requests as the clients sent them (provider protocol, path, HTTP version, headers, body). */
  calls: RecordedCall[];
  /** Embeddings requests (OpenAI, Ollama, Bedrock Titan) as the clients sent them, oldest first. */
  embeddingCalls: RecordedCall[];
  /**
   * The settings that point an agent's LLM factory here over one provider's own protocol (Anthropic
   * Messages, Bedrock Converse over HTTP/2, Gemini, Ollama, OpenAI, Azure OpenAI), with `model` as the
   * model name; `env` is `envFor("openai")`.
   */
  envFor(provider: ProviderName, model?: string): Record<string, string>;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

const MIN_CACHED_TOKENS = 1024;
const DEFAULT_MAX_BODY_BYTES = 20 * 1024 * 1024;

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed || res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "x-request-id": `req_${randomUUID().replaceAll("-", "")}`,
    ...headers,
  });
  res.end(text);
}

function sendError(res: ServerResponse, error: LlmHttpError): void {
  const headers: Record<string, string> =
    error.retryAfterSeconds === undefined ? {} : { "retry-after": String(error.retryAfterSeconds) };
  sendJson(res, error.status, error.toBody(), headers);
}

async function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req) {
    const buffer = part as Buffer;
    size += buffer.length;
    if (size > maxBytes) throw new LlmHttpError(413, `Request body is larger than ${maxBytes} bytes.`);
    parts.push(buffer);
  }
  return Buffer.concat(parts).toString("utf8");
}

function parseChatRequest(text: string, deployment?: string): ChatCompletionRequest {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new LlmHttpError(400, "We could not parse the JSON body of your request. (HINT: send valid JSON.)");
  }
  if (typeof body !== "object" || body === null)
    throw new LlmHttpError(400, "The request body must be a JSON object.");
  // Azure routes by deployment; a body without `model` is valid there.
  if (deployment !== undefined && !(body as Record<string, unknown>).model)
    (body as Record<string, unknown>).model = deployment;
  const { model, messages } = body as Record<string, unknown>;
  if (typeof model !== "string" || model === "") {
    throw new LlmHttpError(400, "you must provide a model parameter", { param: "model" });
  }
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new LlmHttpError(400, "'messages' must be a non-empty array.", { param: "messages" });
  }
  for (const [index, message] of messages.entries()) {
    const role = (message as { role?: unknown } | null)?.role;
    if (!["system", "developer", "user", "assistant", "tool"].includes(String(role))) {
      throw new LlmHttpError(400, `Invalid value for 'messages[${index}].role': ${JSON.stringify(role)}.`, {
        param: `messages[${index}].role`,
        code: "invalid_value",
      });
    }
  }
  return body as ChatCompletionRequest;
}

function checkAuth(req: IncomingMessage, apiKey: string | undefined, azure: boolean): void {
  const azureKey = req.headers["api-key"];
  if (azure && typeof azureKey === "string" && azureKey !== "") {
    if (apiKey !== undefined && azureKey !== apiKey) {
      throw new LlmHttpError(401, "Access denied due to invalid subscription key or wrong API endpoint.");
    }
    return;
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
  if (!match) {
    throw new LlmHttpError(
      401,
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
      { code: null },
    );
  }
  if (apiKey !== undefined && match[1] !== apiKey) {
    throw new LlmHttpError(401, `Incorrect API key provided: ${match[1]?.slice(0, 6)}****.`);
  }
}

async function writeStream(res: ServerResponse, chunks: object[], tokenIntervalMs: number): Promise<void> {
  if (res.destroyed) return;
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
    "x-request-id": `req_${randomUUID().replaceAll("-", "")}`,
  });
  await writePaced(res, chunks, tokenIntervalMs);
  if (!res.destroyed) res.end("data: [DONE]\n\n");
}

/** Starts a scripted OpenAI-compatible server on 127.0.0.1 for the real OpenAI clients to talk to. */
export async function startScriptedLlm(options: ScriptedLlmOptions): Promise<ScriptedLlm> {
  const {
    script,
    latencyMs = 0,
    tokenIntervalMs = 0,
    apiKey,
    models = ["gpt-4o-mini"],
    maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
    record = true,
  } = options;
  if (typeof script !== "function") {
    throw new TypeError(
      "startScriptedLlm needs a `script` function, e.g. rules([...]) from @switchboard-testing/test-llm/rules",
    );
  }
  const requests: ChatCompletionRequest[] = [];
  const calls: RecordedCall[] = [];
  const embeddingCalls: RecordedCall[] = [];
  const recorded = (request: ChatCompletionRequest, call: RecordedCall) => {
    if (!record) return;
    requests.push(request);
    calls.push(call);
  };
  // Prompt prefixes a client marked for caching (Anthropic cache_control, Bedrock cachePoint), as seen.
  const cached = new Set<string>();
  const engine = {
    apiKey,
    embedded: (call: RecordedCall) => {
      if (record) embeddingCalls.push(call);
    },
    async answer(request: ChatCompletionRequest, call: RecordedCall) {
      recorded(request, call);
      const reply = resolveReply(await script(request));
      if (latencyMs > 0) await sleep(latencyMs);
      return reply;
    },
    usage(request: ChatCompletionRequest, reply: ReturnType<typeof resolveReply>, cachePrefix?: string) {
      const usage = usageFor(request, reply);
      const tokens = (text: string) => Math.min(usage.prompt_tokens, Math.ceil(text.length / 4));
      let read = "";
      if (cachePrefix !== undefined) {
        for (const prefix of cached) {
          const covers = cachePrefix === prefix || cachePrefix.startsWith(`${prefix}\n`);
          if (covers && prefix.length > read.length) read = prefix;
        }
        cached.add(cachePrefix);
      }
      // Prefixes under the providers' minimum cacheable length (1,024 tokens for Claude) are not cached.
      const written =
        cachePrefix === undefined || tokens(cachePrefix) < MIN_CACHED_TOKENS ? 0 : tokens(cachePrefix);
      const cacheRead = written === 0 ? 0 : tokens(read);
      return {
        input: usage.prompt_tokens,
        output: usage.completion_tokens,
        cacheRead,
        cacheWrite: written - cacheRead,
      };
    },
  };

  async function chatCompletions(
    req: IncomingMessage,
    res: ServerResponse,
    deployment?: string,
  ): Promise<void> {
    const request = parseChatRequest(await readBody(req, maxBodyBytes), deployment);
    recorded(request, {
      dialect: "openai",
      path: req.url ?? "",
      stream: request.stream === true,
      httpVersion: req.httpVersion,
      headers: req.headers,
      body: request,
    });
    const reply = resolveReply(await script(request));
    if (latencyMs > 0) await sleep(latencyMs);
    const id = completionId();
    const created = Math.floor(Date.now() / 1000);
    const chunks = completionChunks(request, reply, id, created);
    if (request.stream === true) return writeStream(res, chunks, tokenIntervalMs);
    if (tokenIntervalMs > 0) await sleep(tokenIntervalMs * Math.max(0, tokenCount(chunks) - 1));
    sendJson(res, 200, chatCompletion(request, reply, id, created));
  }

  function listModels(res: ServerResponse, id?: string): void {
    const entries = models.map((model) => ({
      id: model,
      object: "model",
      created: 1_700_000_000,
      owned_by: "switchboard",
    }));
    if (id === undefined) {
      sendJson(res, 200, { object: "list", data: entries });
      return;
    }
    const entry = entries.find((e) => e.id === id);
    if (!entry)
      throw new LlmHttpError(404, `The model '${id}' does not exist or you do not have access to it.`);
    sendJson(res, 200, entry);
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (await serveDialect(req, res, url, engine, maxBodyBytes)) return;
    const path = url.pathname.replace(/\/+$/, "");
    const azure = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/.exec(path);
    checkAuth(req, apiKey, azure !== null);
    if (req.method === "POST" && path === "/v1/chat/completions") return chatCompletions(req, res);
    if (req.method === "POST" && azure) {
      if (!url.searchParams.get("api-version")) {
        throw new LlmHttpError(
          400,
          "Missing the api-version query parameter (e.g. ?api-version=2024-10-21).",
          {
            param: "api-version",
            code: null,
          },
        );
      }
      return chatCompletions(req, res, decodeURIComponent(azure[1] ?? ""));
    }
    if (req.method === "POST" && path === "/v1/embeddings") {
      const body = await readBody(req, maxBodyBytes);
      const { httpVersion, headers } = req;
      engine.embedded({
        dialect: "openai",
        path,
        stream: false,
        httpVersion,
        headers,
        body: jsonOrText(body),
      });
      return serveEmbeddings(res, body, sendJson);
    }
    if (req.method === "GET" && path === "/v1/models") return listModels(res);
    if (req.method === "GET" && path.startsWith("/v1/models/")) {
      return listModels(res, decodeURIComponent(path.slice("/v1/models/".length)));
    }
    throw new LlmHttpError(
      404,
      `Invalid URL (${req.method} ${path}): the test LLM serves POST /v1/chat/completions, POST /openai/deployments/{deployment}/chat/completions and GET /v1/models only (the Responses API is not scripted; leave ChatOpenAI's useResponsesApi off).`,
      { code: null },
    );
  }

  const http1 = createServer((req, res) => {
    route(req, res).catch((thrown: unknown) => {
      if (!res.headersSent) sendError(res, toLlmHttpError(thrown));
      else res.destroy();
    });
  });
  // Slow scripted replies (latencyMs, awaited scripts) must not be cut off by Node's request timeout.
  http1.requestTimeout = 0;
  // Cleartext HTTP/2 on the same port, for the AWS SDK's Bedrock client; it serves the dialects only.
  const http2 = createHttp2Server((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    serveDialect(req, res, url, engine, maxBodyBytes)
      .then((served) => {
        if (!served)
          res.writeHead(404).end(`test-llm serves ${req.method} ${url.pathname} over HTTP/1.1 only`);
      })
      .catch(() => res.stream.destroy());
  });
  const server = dualProtocolListener(http1, http2);

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    azureEndpoint: `http://127.0.0.1:${port}`,
    port,
    env: {
      LLM_PROVIDER: "openai",
      OPENAI_API_KEY: apiKey ?? "sk-test",
      OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
      OPENAI_MODEL_NAME: models[0] ?? "gpt-4o-mini",
    },
    requests,
    calls,
    embeddingCalls,
    envFor: (provider, model) => providerEnv(provider, { port, apiKey, model, openAiModel: models[0] }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
