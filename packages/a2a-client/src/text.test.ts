import { Artifact, Message } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { artifactText, messageText, partsText } from "./text.js";

describe("text helpers", () => {
  it("joins text parts, renders data parts as JSON and skips files", () => {
    const message = Message.fromJSON({
      messageId: "m1",
      role: "ROLE_AGENT",
      parts: [
        { text: "Found " },
        { data: { count: 2 } },
        { url: "https://example.com/report.pdf" },
        { text: " issues" },
      ],
    });
    expect(messageText(message)).toBe('Found {"count":2} issues');
  });

  it("reads artifacts and copes with absent values", () => {
    const artifact = Artifact.fromJSON({ artifactId: "a1", parts: [{ text: "done" }] });
    expect(artifactText(artifact)).toBe("done");
    expect(artifactText(undefined)).toBe("");
    expect(messageText(undefined)).toBe("");
    expect(partsText(undefined)).toBe("");
  });
});
