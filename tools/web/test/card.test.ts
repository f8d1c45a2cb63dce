import { describe, expect, it } from "vitest";
import { cardForPage } from "../src/card.js";

describe("the supervisor's card as the page sees it", () => {
  it("moves every interface onto the page's origin under /a2a, in both card versions", () => {
    const v1 = {
      name: "supervisor",
      supportedInterfaces: [
        { url: "http://localhost:8000/", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
        { url: "http://localhost:8000/rest", protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
      ],
      provider: { organization: "acme", url: "https://acme.example" },
    };
    expect(cardForPage(v1, "https://chat.example")).toMatchObject({
      supportedInterfaces: [
        { url: "https://chat.example/a2a/", protocolBinding: "JSONRPC" },
        { url: "https://chat.example/a2a/rest", protocolBinding: "HTTP+JSON" },
      ],
      // Only endpoints move: other URLs on the card stay as they are.
      provider: { url: "https://acme.example" },
    });
    const v03 = {
      url: "https://agents.example/supervisor/",
      preferredTransport: "JSONRPC",
      additionalInterfaces: [{ url: "https://agents.example/supervisor/rest", transport: "HTTP+JSON" }],
    };
    expect(cardForPage(v03, "http://localhost:3000")).toMatchObject({
      url: "http://localhost:3000/a2a/",
      additionalInterfaces: [{ url: "http://localhost:3000/a2a/rest" }],
    });
  });
});
