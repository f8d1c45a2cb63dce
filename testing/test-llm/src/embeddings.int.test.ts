import { BedrockEmbeddings } from "@langchain/aws";
import { OllamaEmbeddings } from "@langchain/ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embed } from "./embeddings.js";
import { say } from "./replies.js";
import { type ScriptedLlm, startScriptedLlm } from "./server.js";

// The embeddings calls of Bedrock (InvokeModel, Titan's body) and Ollama (/api/embed), through the
// providers' own LangChain classes, and what the server refuses as the providers do.

let llm: ScriptedLlm;
let base: string;

beforeAll(async () => {
  llm = await startScriptedLlm({ script: () => say("unused"), apiKey: "AKIATESTEMBED" });
  base = `http://127.0.0.1:${llm.port}`;
});
afterAll(() => llm?.close());

const bedrock = (fields: { accessKeyId?: string; dimensions?: number; model?: string } = {}) =>
  new BedrockEmbeddings({
    model: fields.model ?? "amazon.titan-embed-text-v2:0",
    region: "eu-west-1",
    credentials: { accessKeyId: fields.accessKeyId ?? "AKIATESTEMBED", secretAccessKey: "test-secret" },
    clientOptions: { endpoint: base, maxAttempts: 1 },
    maxRetries: 0,
    ...(fields.dimensions ? { dimensions: fields.dimensions } : {}),
  });

describe("embeddings over the providers' own protocols", () => {
  it("Bedrock: Titan's body in, {embedding} out, SigV4 checked, dimensions and unknown keys as Bedrock takes them", async () => {
    const texts = ["payments deploys go through pay-api", "the weekly report"];
    expect(await bedrock().embedDocuments(texts)).toEqual(texts.map((text) => embed(text)));
    const call = llm.embeddingCalls.at(-1);
    expect(call?.path).toBe("/model/amazon.titan-embed-text-v2%3A0/invoke");
    expect(call?.body).toEqual({ inputText: "the weekly report" });
    expect(call?.headers.authorization).toMatch(/Credential=AKIATESTEMBED\/\d{8}\/eu-west-1\/bedrock\//);

    expect(await bedrock({ dimensions: 256 }).embedQuery("weekly report")).toHaveLength(256);
    await expect(bedrock({ dimensions: 100 }).embedQuery("weekly report")).rejects.toThrow(
      "Malformed input request: #/dimensions: 100 is not a valid enum value",
    );
    await expect(
      bedrock({ model: "amazon.titan-embed-text-v1", dimensions: 256 }).embedQuery("x y z"),
    ).rejects.toThrow("extraneous key [dimensions] is not permitted");
    await expect(bedrock({ accessKeyId: "AKIAOTHERKEY" }).embedQuery("weekly report")).rejects.toThrow(
      "The security token included in the request is invalid.",
    );
    const unsigned = await fetch(`${base}/model/amazon.titan-embed-text-v2:0/invoke`, {
      method: "POST",
      body: JSON.stringify({ inputText: "weekly report" }),
    });
    expect(unsigned.status).toBe(403);
    expect(unsigned.headers.get("x-amzn-errortype")).toBe("MissingAuthenticationTokenException");
  });

  it("Ollama: /api/embed with one vector per input, dimensions honoured, bad input refused in Ollama's words", async () => {
    const texts = ["payments deploys go through pay-api", "the weekly report"];
    const ollama = new OllamaEmbeddings({ model: "nomic-embed-text", baseUrl: base });
    expect(await ollama.embedDocuments(texts)).toEqual(texts.map((text) => embed(text)));
    expect(llm.embeddingCalls.at(-1)?.body).toMatchObject({ model: "nomic-embed-text", input: texts });
    const small = new OllamaEmbeddings({ model: "nomic-embed-text", baseUrl: base, dimensions: 32 });
    expect(await small.embedQuery("weekly report")).toEqual(embed("weekly report", 32));
    const bad = await fetch(`${base}/api/embed`, {
      method: "POST",
      body: JSON.stringify({ model: "nomic-embed-text", input: 42 }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "invalid input type" });
  });
});
