import { describe, expect, it } from "vitest";
import { readRagSettings } from "./settings.js";

describe("the knowledge base settings", () => {
  it("are off unless ENABLE_RAG is true, and take CAIPE's default URL", () => {
    expect(readRagSettings({ RAG_SERVER_URL: "http://rag-server:9446" })).toBeUndefined();
    expect(readRagSettings({ ENABLE_RAG: "false" })).toBeUndefined();
    expect(readRagSettings({ ENABLE_RAG: "true" })).toEqual({
      url: "http://localhost:9446",
      retryMs: 10_000,
    });
    expect(
      readRagSettings({
        ENABLE_RAG: "true",
        RAG_SERVER_URL: "http://rag-server:9446/",
        RAG_CONNECTIVITY_WAIT_SECONDS: "3",
      }),
    ).toEqual({ url: "http://rag-server:9446", retryMs: 3_000 });
  });

  it("refuse a URL with credentials in it, naming the setting and never the password", () => {
    const read = () =>
      readRagSettings({ ENABLE_RAG: "true", RAG_SERVER_URL: "http://svc:hunter2-s3cret@rag-server:9446" });
    expect(read).toThrow(/RAG_SERVER_URL.*no user name or password/);
    expect(read).not.toThrow(/hunter2/);
  });

  it("name the setting and the fix for a bad value", () => {
    expect(() => readRagSettings({ ENABLE_RAG: "sometimes" })).toThrow(/ENABLE_RAG.*true or false/);
    expect(() => readRagSettings({ ENABLE_RAG: "true", RAG_SERVER_URL: "rag-server:9446" })).toThrow(
      /RAG_SERVER_URL.*base URL, e\.g\. http:\/\/rag-server:9446/,
    );
  });
});
