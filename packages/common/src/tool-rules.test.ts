import { describe, expect, it } from "vitest";
import {
  PORTABLE_TOOL_NAME,
  PROVIDER_TOOL_RULES,
  type ToolRulesProvider,
  toolProblems,
} from "./tool-rules.js";

const PROVIDERS = Object.keys(PROVIDER_TOOL_RULES) as ToolRulesProvider[];

describe("the providers' tool rules", () => {
  it("name the provider, the tool and the rule a tool breaks", () => {
    const awkward = {
      name: "jira.search:issues",
      parameters: {
        type: "object",
        properties: { when: { type: ["string", "null"] } },
        additionalProperties: false,
      },
    };
    expect(toolProblems("openai", [awkward])).toEqual([
      'openai: tool name "jira.search:issues" breaks the rule: letters, digits, _ and -, 1 to 64 characters.',
    ]);
    expect(toolProblems("google-gemini", [awkward])).toEqual([
      'google-gemini: tool jira.search:issues\'s parameters at /properties/when: type ["string","null"] is not one the provider takes.',
      "google-gemini: tool jira.search:issues's parameters: keyword additionalProperties is not in the provider's schema subset.",
    ]);
    expect(toolProblems("anthropic-claude", [{ name: "ok", parameters: { type: "string" } }])).toEqual([
      `anthropic-claude: tool ok's parameters: the parameters must be an object schema ({"type": "object"}).`,
    ]);
    expect(toolProblems("ollama", [awkward])).toEqual([]);
  });

  it("make the portable name one every provider's name rule takes", () => {
    for (const name of ["search_issues", "_x", "a-b", "x".repeat(64)]) {
      expect(PORTABLE_TOOL_NAME.test(name)).toBe(true);
      for (const provider of PROVIDERS)
        expect(toolProblems(provider, [{ name, parameters: { type: "object" } }])).toEqual([]);
    }
  });
});
