import { once } from "node:events";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { classifyFailure, failureError } from "./failures.js";

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, "close");
  return port;
}

describe("a provider's failure, read as every package reads one", () => {
  it("is unreachable when fetch finds nothing listening, naming the URL setting", async () => {
    const error = await fetch(`http://127.0.0.1:${await closedPort()}/v1/chat/completions`).catch(
      (thrown: unknown) => thrown,
    );
    const failure = classifyFailure(error);
    expect(failure).toEqual({ kind: "unreachable" });
    expect(failureError("openai", "gpt-4o", failure).message).toContain(
      "cannot be reached: check OPENAI_BASE_URL",
    );
  });

  it("reads a reset connection and a connect timeout as unreachable too (one list of codes)", () => {
    const reset = new TypeError("fetch failed", {
      cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
    });
    expect(classifyFailure(reset).kind).toBe("unreachable");
    expect(classifyFailure(Object.assign(new Error("connect ETIMEDOUT"), { code: "ETIMEDOUT" })).kind).toBe(
      "unreachable",
    );
  });

  it("reads the status and wait of an error wrapped by LangChain, in milliseconds", () => {
    const openAi = Object.assign(new Error("429 Rate limit reached"), {
      status: 429,
      headers: new Headers({ "retry-after-ms": "1500", "retry-after": "2" }),
    });
    expect(classifyFailure(new Error("model call failed", { cause: openAi }))).toEqual({
      kind: "rate-limited",
      status: 429,
      retryAfterMs: 1500,
    });
    const ollama = Object.assign(new Error('model "llama9" not found'), { status_code: 404 });
    expect(classifyFailure(ollama)).toEqual({ kind: "model", status: 404 });
    const confluenceLike = Object.assign(new Error("Service Unavailable"), {
      response: { status: 503, headers: { "Retry-After": "3" } },
    });
    expect(classifyFailure(confluenceLike)).toEqual({ kind: "overloaded", status: 503, retryAfterMs: 3000 });
  });

  it("still reads Gemini's RetryInfo when no header asks for a wait", () => {
    const gemini = Object.assign(new Error("quota"), { status: 429, errorDetails: [{ retryDelay: "7s" }] });
    expect(classifyFailure(gemini)).toEqual({ kind: "rate-limited", status: 429, retryAfterMs: 7000 });
  });
});
