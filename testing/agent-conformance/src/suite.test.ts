import { describe, expect, it } from "vitest";
import { conformanceRules, expectText } from "./suite.js";

describe("conformance helpers", () => {
  it("expects every string to be contained and every RegExp to match", () => {
    expectText("Created OPS-7 in OPS", ["Created", /OPS-\d+/]);
    expectText("Created OPS-7", "OPS-7");
    expect(() => expectText("Created OPS-7", [/OPS-\d+/, "PLAT"])).toThrow();
    expect(() => expectText(undefined, "anything")).toThrow();
  });

  it("answers summary requests first, then the agent's rules, before recall and answering from a tool result", () => {
    const own = { lastUser: /list items/, reply: { content: "x" } };
    const script = conformanceRules([own]);
    expect(script[0]).toMatchObject({ test: expect.any(Function) });
    expect(script[1]).toBe(own);
    expect(script.slice(2)).toMatchObject([{ lastUser: /what did I ask/ }, { afterTool: true }]);
  });
});
