import { describe, expect, it } from "vitest";
import { decisionWord, readQuestion, shownArgsHashes } from "./question.js";

describe("readQuestion", () => {
  it("reads a relayed confirmation, a plain question, and a confirmation asked again after a refused approval", () => {
    expect(
      readQuestion("The jira agent asks: Create a Bug in PLAT\nShall I go ahead? Answer yes or no."),
    ).toEqual({
      agent: "jira",
      text: "Create a Bug in PLAT",
      confirmation: true,
    });
    expect(readQuestion("Which project?")).toEqual({ text: "Which project?", confirmation: false });
    const refusal = "Not allowed: bob may not approve or decline alice's change (no policy permits it).";
    expect(
      readQuestion(
        `The jira agent asks: ${refusal}\nCreate a Bug in PLAT\nShall I go ahead? Answer yes or no.`,
      ),
    ).toEqual({ agent: "jira", text: "Create a Bug in PLAT", confirmation: true, refusedApproval: refusal });
  });

  it("takes only a whole answer that is exactly one decision word as a decision", () => {
    expect(decisionWord(" Yes. ")).toBe("approve");
    expect(decisionWord("decline")).toBe("decline");
    expect(decisionWord("ok wait, don't do that")).toBeUndefined();
    expect(decisionWord("yes… no, cancel it")).toBeUndefined();
    expect(decisionWord("OK")).toBeUndefined();
  });

  it("reads the hashes a confirmation shows from its status message's metadata", () => {
    expect(
      shownArgsHashes({ confirmation: { changes: [{ tool: "t", argsHash: "h1" }, { argsHash: "h2" }] } }),
    ).toEqual(["h1", "h2"]);
    expect(shownArgsHashes({ confirmation: { changes: [{ argsHash: 3 }] } })).toBeUndefined();
    expect(shownArgsHashes(undefined)).toBeUndefined();
  });
});
