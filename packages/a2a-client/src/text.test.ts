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

  it("leaves out Switchboard's own data parts (an answer's sources), which are not the answer's text", () => {
    const artifact = Artifact.fromJSON({
      artifactId: "a1",
      parts: [
        { text: "Restart it with the runbook." },
        {
          data: { sources: [{ title: "Restart", url: "https://docs.example.com/r" }] },
          metadata: { "switchboard/type": "sources" },
        },
      ],
    });
    expect(artifactText(artifact)).toBe("Restart it with the runbook.");
  });

  it("reads artifacts and copes with absent values", () => {
    const artifact = Artifact.fromJSON({ artifactId: "a1", parts: [{ text: "done" }] });
    expect(artifactText(artifact)).toBe("done");
    expect(artifactText(undefined)).toBe("");
    expect(messageText(undefined)).toBe("");
    expect(partsText(undefined)).toBe("");
  });
});
