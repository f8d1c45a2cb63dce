import type { ResolvedReply } from "../completion.js";
import { splitIntoTokens } from "../completion.js";
import { contextNumbers, LlmHttpError } from "../errors.js";
import type { ChatMessage, ToolDefinition } from "../types.js";
import {
  type AnyResponse,
  argsOf,
  canonical,
  type Dialect,
  type DialectUsage,
  invalid,
  isRecord,
  modelNamed,
  parseJson,
  randomId,
  sendBody,
  textOf,
  toolCall,
  toolDefinition,
  userText,
} from "./shared.js";
import { geminiToolProblems } from "./tool-rules.js";

// The Gemini API (ai.google.dev/api/generate-content): POST /v1beta/models/{model}:generateContent and
// :streamGenerateContent (with ?alt=sse, Server-Sent Events; without, one JSON array sent in pieces);
// the key in x-goog-api-key or ?key=; contents of role user/model with text, functionCall and
// functionResponse parts (responses answer calls by name); errors as {error:{code, message, status}}.

const STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

function toCanonical(body: Record<string, unknown>) {
  const { contents, systemInstruction, tools } = body;
  if (!Array.isArray(contents) || contents.length === 0)
    throw invalid("* GenerateContentRequest.contents: contents is not specified");
  const out: ChatMessage[] = [];
  if (isRecord(systemInstruction) && Array.isArray(systemInstruction.parts))
    out.push({ role: "system", content: textOf(systemInstruction.parts) });
  let open: { id: string; name: string }[] = [];
  for (const [index, content] of contents.entries()) {
    const at = `contents[${index}]`;
    if (!isRecord(content) || !Array.isArray(content.parts) || content.parts.length === 0)
      throw invalid(`* GenerateContentRequest.${at}.parts: contents.parts must not be empty.`);
    const parts = content.parts.filter(isRecord);
    const role = content.role ?? "user";
    if (role === "model") {
      const calls = parts
        .filter((p) => isRecord(p.functionCall))
        .map((p) => p.functionCall as Record<string, unknown>);
      open = calls.map((call, i) => ({ id: `gemini_${index}_${i}`, name: String(call.name) }));
      out.push({
        role: "assistant",
        content: textOf(parts) || null,
        ...(calls.length > 0
          ? {
              tool_calls: calls.map((call, i) =>
                toolCall(open[i]?.id as string, String(call.name), call.args),
              ),
            }
          : {}),
      });
      continue;
    }
    if (role !== "user" && role !== "function")
      throw invalid(`* GenerateContentRequest.${at}.role: Please use a valid role: user, model.`);
    const responses = parts
      .filter((p) => isRecord(p.functionResponse))
      .map((p) => p.functionResponse as Record<string, unknown>);
    if (responses.length > 0 && responses.length !== open.length)
      throw invalid(
        "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.",
      );
    for (const response of responses) {
      const call = open.find((c) => c.name === response.name);
      if (!call)
        throw invalid(
          `* GenerateContentRequest.${at}: a function response names ${String(response.name)}, which the turn before did not call.`,
        );
      open = open.filter((c) => c !== call);
      const value = isRecord(response.response) ? response.response : {};
      const result = "result" in value ? value.result : "error" in value ? value.error : value;
      out.push({
        role: "tool",
        tool_call_id: call.id,
        content: typeof result === "string" ? result : JSON.stringify(result),
      });
    }
    if (responses.length === 0 && open.length > 0)
      throw invalid(
        "Please ensure that function call turn comes immediately after a user turn or after a function response turn.",
      );
    out.push(...userText(parts));
  }
  const declared = Array.isArray(tools) ? tools : [];
  const problems = geminiToolProblems(declared);
  if (problems.length > 0) throw invalid(problems.join("\n"));
  const defs: ToolDefinition[] = [];
  for (const tool of declared) {
    const list = isRecord(tool) ? (tool.functionDeclarations ?? tool.function_declarations) : undefined;
    for (const d of Array.isArray(list) ? list.filter(isRecord) : [])
      defs.push(toolDefinition(String(d.name), d.description, d.parameters ?? d.parametersJsonSchema));
  }
  return { messages: out, tools: defs };
}

function usageMetadata(usage: DialectUsage) {
  return {
    promptTokenCount: usage.input,
    candidatesTokenCount: usage.output,
    totalTokenCount: usage.input + usage.output,
    ...(usage.cacheRead > 0 ? { cachedContentTokenCount: usage.cacheRead } : {}),
    promptTokensDetails: [{ modality: "TEXT", tokenCount: usage.input }],
  };
}

function response(model: string, id: string, parts: unknown[], finish: boolean, usage?: DialectUsage) {
  return {
    candidates: [
      { content: { parts, role: "model" }, ...(finish ? { finishReason: "STOP" } : {}), index: 0 },
    ],
    ...(usage ? { usageMetadata: usageMetadata(usage) } : {}),
    modelVersion: model,
    responseId: id,
  };
}

/** A candidate the safety filters blocked: no content, finishReason SAFETY and the rating that blocked it. */
function blocked(model: string, usage: DialectUsage) {
  return {
    candidates: [
      {
        finishReason: "SAFETY",
        index: 0,
        safetyRatings: [
          { category: "HARM_CATEGORY_DANGEROUS_CONTENT", probability: "HIGH", blocked: true },
          { category: "HARM_CATEGORY_HARASSMENT", probability: "NEGLIGIBLE" },
        ],
      },
    ],
    usageMetadata: usageMetadata({ ...usage, output: 0 }),
    modelVersion: model,
    responseId: randomId("", 22, "base62"),
  };
}

function callParts(reply: ResolvedReply): unknown[] {
  return reply.toolCalls.map((call) => ({ functionCall: { name: call.name, args: argsOf(call) } }));
}

/** The streamed responses: text a few words at a time, then the function calls whole, as Gemini sends them. */
function chunks(model: string, reply: ResolvedReply, usage: DialectUsage) {
  const id = randomId("", 22, "base62");
  const words = splitIntoTokens(reply.content ?? "");
  const out: unknown[] = [];
  for (let i = 0; i < words.length; i += 4) {
    out.push(response(model, id, [{ text: words.slice(i, i + 4).join("") }], false));
  }
  const calls = callParts(reply);
  out.push(response(model, id, calls.length > 0 ? calls : [{ text: "" }], true, usage));
  return out;
}

function writeStream(res: AnyResponse, sse: boolean, events: unknown[]): void {
  res.writeHead(200, { "content-type": sse ? "text/event-stream" : "application/json; charset=UTF-8" });
  if (sse) {
    for (const event of events) res.write(`data: ${JSON.stringify(event)}\r\n\r\n`);
  } else {
    for (const [i, event] of events.entries())
      res.write(`${i === 0 ? "[" : "\r\n,"}${JSON.stringify(event)}`);
    res.write("]");
  }
  res.end();
}

const ROUTE = /^\/(v1beta|v1)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

export const gemini: Dialect = {
  name: "gemini",
  matches: (method, path) => method === "POST" && ROUTE.test(path),
  async handle(req, res, url, text, engine) {
    const [, , model = "", method] = ROUTE.exec(url.pathname) ?? [];
    const headerKey = req.headers["x-goog-api-key"];
    const key = typeof headerKey === "string" && headerKey !== "" ? headerKey : url.searchParams.get("key");
    if (!key)
      throw new LlmHttpError(
        403,
        "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
      );
    if (engine.apiKey !== undefined && key !== engine.apiKey)
      throw new LlmHttpError(400, "API key not valid. Please pass a valid API key.", {
        code: "API_KEY_INVALID",
      });
    const body = parseJson(text, invalid);
    const stream = method === "streamGenerateContent";
    const parsed = toCanonical(body);
    const config = isRecord(body.generationConfig) ? body.generationConfig : {};
    const request = canonical(decodeURIComponent(model), parsed.messages, parsed.tools, stream, {
      ...(config.temperature === undefined ? {} : { temperature: config.temperature }),
    });
    const reply = await engine.answer(request, {
      dialect: "gemini",
      path: url.pathname,
      stream,
      httpVersion: req.httpVersion,
      headers: req.headers,
      body,
    });
    const usage = engine.usage(request, reply);
    if (reply.filtered) {
      const answer = blocked(request.model, usage);
      return stream
        ? writeStream(res, url.searchParams.get("alt") === "sse", [answer])
        : sendBody(res, 200, answer);
    }
    if (stream)
      return writeStream(res, url.searchParams.get("alt") === "sse", chunks(request.model, reply, usage));
    const parts = [...(reply.content ? [{ text: reply.content }] : []), ...callParts(reply)];
    sendBody(res, 200, response(request.model, randomId("", 22, "base62"), parts, true, usage));
  },
  sendError(res, error) {
    const status = STATUS[error.status] ?? (error.status >= 500 ? "INTERNAL" : "INVALID_ARGUMENT");
    const { tokens, limit } = contextNumbers(error);
    const message =
      error.code === "model_not_found"
        ? `models/${modelNamed(error)} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`
        : error.code === "context_length_exceeded"
          ? `The input token count (${tokens}) exceeds the maximum number of tokens allowed (${limit}).`
          : error.message;
    const details =
      error.code === "API_KEY_INVALID"
        ? [
            {
              "@type": "type.googleapis.com/google.rpc.ErrorInfo",
              reason: "API_KEY_INVALID",
              domain: "googleapis.com",
            },
          ]
        : error.retryAfterSeconds !== undefined
          ? [
              {
                "@type": "type.googleapis.com/google.rpc.RetryInfo",
                retryDelay: `${error.retryAfterSeconds}s`,
              },
            ]
          : undefined;
    sendBody(res, error.status, {
      error: { code: error.status, message, status, ...(details ? { details } : {}) },
    });
  },
};
