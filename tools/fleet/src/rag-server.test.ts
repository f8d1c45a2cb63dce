import { describe, expect, it } from "vitest";
import { ragServerWanted } from "./fleet.js";

describe("npm start's knowledge base", () => {
  it("runs when embeddings are configured, unless ENABLE_RAG=false or RAG_SERVER_URL names another machine", () => {
    expect(ragServerWanted({})).toBe(false);
    expect(ragServerWanted({ EMBEDDINGS_PROVIDER: "openai" })).toBe(true);
    expect(ragServerWanted({ EMBEDDINGS_PROVIDER: "openai", RAG_SERVER_URL: "http://localhost:9500" })).toBe(
      true,
    );
    expect(ragServerWanted({ EMBEDDINGS_PROVIDER: "openai", ENABLE_RAG: "false" })).toBe(false);
    // A CAIPE .env's RAG server in its own container: the supervisor uses that one.
    expect(ragServerWanted({ EMBEDDINGS_PROVIDER: "openai", RAG_SERVER_URL: "http://rag-server:9446" })).toBe(
      false,
    );
  });
});
