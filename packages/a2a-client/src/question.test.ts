import { describe, expect, it } from "vitest";
import { readQuestion } from "./question.js";

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
});
