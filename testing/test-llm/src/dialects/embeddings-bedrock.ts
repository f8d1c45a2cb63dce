import { splitIntoTokens } from "../completion.js";
import { embed } from "../embeddings.js";
import { type LlmHttpError, unknownModel } from "../errors.js";
import { bedrock, checkSigned } from "./bedrock.js";
import { type Dialect, invalid, parseJson, randomId, sendBody } from "./shared.js";

// Bedrock Runtime's InvokeModel (POST /model/{modelId}/invoke, SigV4-signed) for Amazon Titan text
// embeddings, what LangChain's BedrockEmbeddings sends: {inputText, dimensions?, normalize?,
// embeddingTypes?} (v2; v1 takes inputText alone) → {embedding, inputTextTokenCount}. The vectors are
// test-llm's deterministic ones (embeddings.ts), always normalized; an unknown key or dimension is
// refused as Bedrock refuses it. Other model families' invoke bodies are not served.

const ROUTE = /^\/model\/([^/]+)\/invoke$/;
const TITAN_V2_DIMENSIONS = [256, 512, 1024];

function malformed(detail: string): LlmHttpError {
  return invalid(`Malformed input request: ${detail}, please reformat your input and try again.`);
}

function titanRequest(model: string, body: Record<string, unknown>): { text: string; dims?: number } {
  const v2 = model.startsWith("amazon.titan-embed-text-v2");
  const allowed = v2 ? ["inputText", "dimensions", "normalize", "embeddingTypes"] : ["inputText"];
  const extra = Object.keys(body).find((key) => !allowed.includes(key));
  if (extra !== undefined) throw malformed(`extraneous key [${extra}] is not permitted`);
  if (typeof body.inputText !== "string") throw malformed("#: required key [inputText] not found");
  if (body.inputText === "") throw malformed("#/inputText: expected minLength: 1, actual: 0");
  const { dimensions, normalize } = body;
  if (dimensions !== undefined && !TITAN_V2_DIMENSIONS.includes(dimensions as number))
    throw malformed(`#/dimensions: ${JSON.stringify(dimensions)} is not a valid enum value`);
  if (normalize !== undefined && typeof normalize !== "boolean")
    throw malformed(`#/normalize: expected type: Boolean, found: ${typeof normalize}`);
  return { text: body.inputText, ...(dimensions === undefined ? {} : { dims: dimensions as number }) };
}

export const bedrockEmbeddings: Dialect = {
  name: "bedrock",
  matches: (method, path) => method === "POST" && ROUTE.test(path),
  async handle(req, res, url, text, engine) {
    const model = decodeURIComponent(ROUTE.exec(url.pathname)?.[1] ?? "");
    checkSigned(req.headers.authorization, engine.apiKey);
    const body = parseJson(text, invalid);
    const { httpVersion, headers } = req;
    engine.embedded({ dialect: "bedrock", path: url.pathname, stream: false, httpVersion, headers, body });
    if (!/^amazon\.titan-embed-(text|g1-text)-/.test(model)) throw unknownModel(model);
    const request = titanRequest(model, body);
    const tokens = splitIntoTokens(request.text).length;
    sendBody(
      res,
      200,
      { embedding: embed(request.text, request.dims), inputTextTokenCount: tokens },
      {
        "x-amzn-requestid": randomId("", 32),
        "x-amzn-bedrock-input-token-count": String(tokens),
        "x-amzn-bedrock-invocation-latency": "1",
      },
    );
  },
  sendError: bedrock.sendError,
};
