import { splitIntoTokens } from "../completion.js";
import { embed } from "../embeddings.js";
import { LlmHttpError } from "../errors.js";
import { ollama } from "./ollama.js";
import { type Dialect, parseJson, sendBody } from "./shared.js";

// Ollama's embed API (POST /api/embed, github.com/ollama/ollama docs/api.md), the one OllamaEmbeddings
// calls through the ollama client: {model, input: a string or a list of them, truncate?, dimensions?,
// options?, keep_alive?} → {model, embeddings: one vector per input, durations, prompt_eval_count}.
// The vectors are test-llm's deterministic ones (embeddings.ts); errors are Ollama's {error}.

export const ollamaEmbeddings: Dialect = {
  name: "ollama",
  matches: (method, path) => method === "POST" && path === "/api/embed",
  async handle(req, res, url, text, engine) {
    const body = parseJson(text, (m) => new LlmHttpError(400, m));
    const { httpVersion, headers } = req;
    engine.embedded({ dialect: "ollama", path: url.pathname, stream: false, httpVersion, headers, body });
    const { model, input, dimensions } = body;
    if (typeof model !== "string" || model === "") throw new LlmHttpError(400, "model is required");
    const inputs = typeof input === "string" ? [input] : input;
    if (!Array.isArray(inputs) || inputs.some((item) => typeof item !== "string"))
      throw new LlmHttpError(400, "invalid input type");
    if (dimensions !== undefined && !(Number.isInteger(dimensions) && (dimensions as number) > 0))
      throw new LlmHttpError(400, "dimensions must be a positive integer");
    const texts = inputs as string[];
    sendBody(res, 200, {
      model,
      embeddings: texts.map((item) => embed(item, dimensions as number | undefined)),
      total_duration: 1_000_000,
      load_duration: 0,
      prompt_eval_count: texts.reduce((sum, item) => sum + splitIntoTokens(item).length, 0),
    });
  },
  sendError: ollama.sendError,
};
