import { toLlmHttpError } from "../errors.js";
import { anthropic } from "./anthropic.js";
import { bedrock } from "./bedrock.js";
import { bedrockEmbeddings } from "./embeddings-bedrock.js";
import { ollamaEmbeddings } from "./embeddings-ollama.js";
import { gemini } from "./gemini.js";
import { ollama } from "./ollama.js";
import type { AnyRequest, AnyResponse, Dialect, DialectEngine } from "./shared.js";

export type { DialectName, DialectUsage, RecordedCall } from "./shared.js";

/** The provider protocols served beside OpenAI's and Azure's, on the same port (with their embeddings). */
export const DIALECTS: readonly Dialect[] = [
  anthropic,
  bedrock,
  gemini,
  ollama,
  bedrockEmbeddings,
  ollamaEmbeddings,
];

async function readText(req: AnyRequest, maxBytes: number): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req) {
    size += (part as Buffer).length;
    if (size > maxBytes)
      throw Object.assign(new Error(`Request body is larger than ${maxBytes} bytes.`), { status: 413 });
    parts.push(part as Buffer);
  }
  return Buffer.concat(parts).toString("utf8");
}

/**
 * Serves the request when it is one of a dialect's (answering, or failing in that provider's error
 * shape) and returns true; returns false for every other request.
 */
export async function serveDialect(
  req: AnyRequest,
  res: AnyResponse,
  url: URL,
  engine: DialectEngine,
  maxBodyBytes: number,
): Promise<boolean> {
  const path = url.pathname.replace(/\/+$/, "");
  const dialect = DIALECTS.find((d) => d.matches(req.method ?? "GET", path));
  if (!dialect) return false;
  try {
    await dialect.handle(req, res, url, await readText(req, maxBodyBytes), engine);
  } catch (thrown) {
    if (!res.headersSent) dialect.sendError(res, toLlmHttpError(thrown));
    else res.end();
  }
  return true;
}
