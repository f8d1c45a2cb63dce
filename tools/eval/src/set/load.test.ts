import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evalSetJsonSchema } from "./json-schema.js";
import { readSet } from "./load.js";

const SET = `
name: jira
cases:
  - id: open-issues
    input: open issues in PLAT
    expect:
      agents: [jira]
      tools:
        match: exact
        calls:
          - name: search_issues
            args: { jql: { contains: "project = PLAT" }, maxResults: 50 }
      answer: { contains: [PLAT-1], regex: ["PLAT-\\\\d+"] }
      rubric: [Lists each open issue with its key]
  - id: two-turns
    messages: ["create a bug in PLAT: login fails", "yes"]
    target: jira
    expect: { tools: [create_issue] }
`;

describe("Switchboard's set format", () => {
  it("reads a set into cases: routing, tool calls with argument matchers, answer checks, rubric", () => {
    const set = readSet(SET, "jira.yaml");
    expect(set.cases.map((c) => c.key)).toEqual(["jira/open-issues", "jira/two-turns"]);
    const [first, second] = set.cases;
    expect(first?.expect.agents).toEqual({ alternatives: [["jira"]], match: "in-order" });
    expect(first?.expect.tools).toEqual({
      match: "exact",
      calls: [
        { name: "search_issues", args: { jql: { contains: "project = PLAT" }, maxResults: { equals: 50 } } },
      ],
    });
    expect(first?.expect.answer).toEqual({ contains: ["PLAT-1"], regex: ["PLAT-\\d+"] });
    expect(first?.target).toBe("supervisor");
    expect(second?.messages).toEqual(["create a bug in PLAT: login fails", "yes"]);
    expect(second?.target).toBe("jira");
    expect(second?.expect.tools).toEqual({ match: "in-order", calls: [{ name: "create_issue" }] });
  });

  it("names the file, the case and the field of a mistake, and what to do", () => {
    const bad = `name: x\ncases:\n  - id: one\n    input: hi\n    expect: { tools: [{ nme: search }] }\n`;
    expect(() => readSet(bad, "x.yaml")).toThrow(/x\.yaml: cases\[0\] \(one\)\.expect\.tools/);
    expect(() => readSet("name: x\ncases:\n  - id: one\n", "x.yaml")).toThrow(
      /exactly one of `input` and `messages`/,
    );
    expect(() =>
      readSet("name: x\ncases:\n  - { id: a, input: hi }\n  - { id: a, input: ho }\n", "x.yaml"),
    ).toThrow(/case id "a" appears twice/);
    expect(() =>
      readSet("name: x\ncases:\n  - { id: a, input: hi, expect: { answer: { regex: ['('] } } }\n", "x.yaml"),
    ).toThrow(/not a valid regular expression/);
    expect(() => readSet("name: [", "x.yaml")).toThrow(/x\.yaml is not valid YAML/);
  });

  it("ships its JSON Schema as generated from the format (pnpm --filter @switchboard/eval schema)", () => {
    const file = JSON.parse(
      readFileSync(join(import.meta.dirname, "..", "..", "schema", "eval-set.schema.json"), "utf8"),
    );
    expect(file).toEqual(JSON.parse(JSON.stringify(evalSetJsonSchema())));
  });
});
