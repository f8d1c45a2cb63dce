import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import { LlmHttpError } from "./errors.js";

/** Vector length of the test embeddings: small, so stored memories stay small in tests. */
export const EMBEDDING_DIMS = 64;

/**
 * A deterministic embedding: each meaningful word hashed to a dimension, the vector normalized. Texts
 * that share words are close (cosine), texts that share none are orthogonal, so a test can tell a
 * relevant memory from an unrelated one through each provider's real embeddings client. `dims`: the
 * length a client asked for (Bedrock's and Ollama's `dimensions`), else EMBEDDING_DIMS.
 */
export function embed(text: string, dims = EMBEDDING_DIMS): number[] {
  const vector = new Array<number>(dims).fill(0);
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word.length < 3) continue;
    const slot = createHash("sha256").update(word).digest().readUInt32BE(0) % dims;
    vector[slot] = (vector[slot] ?? 0) + 1;
  }
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0)) || 1;
  return vector.map((value) => value / norm);
}

/**
 * `POST /v1/embeddings` as OpenAI serves it: `input` a string or a list of them, floats or (the
 * openai SDK's default) base64 of little-endian float32.
 */
export function embeddingsResponse(body: string): unknown {
  let parsed: { input?: unknown; model?: unknown; encoding_format?: unknown };
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    throw new LlmHttpError(400, "We could not parse the JSON body of your request.");
  }
  const inputs = typeof parsed.input === "string" ? [parsed.input] : parsed.input;
  if (!Array.isArray(inputs) || inputs.some((input) => typeof input !== "string")) {
    throw new LlmHttpError(400, "'input' must be a string or an array of strings.", { param: "input" });
  }
  const base64 = parsed.encoding_format === "base64";
  return {
    object: "list",
    model: typeof parsed.model === "string" ? parsed.model : "text-embedding-3-small",
    data: (inputs as string[]).map((input, index) => {
      const vector = embed(input);
      return {
        object: "embedding",
        index,
        embedding: base64 ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector,
      };
    }),
    usage: { prompt_tokens: 0, total_tokens: 0 },
  };
}

/** A request body as recorded: its JSON, or the text when it is not JSON. */
export function jsonOrText(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

/** Answers one embeddings request (the server's route calls this with the body read). */
export function serveEmbeddings(
  res: ServerResponse,
  body: string,
  send: (res: ServerResponse, status: number, body: unknown) => void,
): void {
  send(res, 200, embeddingsResponse(body));
}
