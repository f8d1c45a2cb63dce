import { existsSync } from "node:fs";
import { join } from "node:path";
import { CAIPE_COMMIT } from "@switchboard-testing/test-caipe";
import { describe, expect, it } from "vitest";
import {
  CAIPE_EVALS_COMMIT,
  caipeAgentName,
  caipeSource,
  loadCaipeSet,
  promptSet,
  strictMatchCases,
} from "./caipe.js";

describe("CAIPE's datasets", () => {
  it("maps CAIPE's agent names (supervisor tools, graph nodes) to Switchboard's", () => {
    expect(caipeAgentName("github_tools_agent")).toBe("github");
    expect(caipeAgentName("agent_jira")).toBe("jira");
    expect(caipeAgentName("PagerDuty_tools_agent")).toBe("pagerduty");
    expect(caipeAgentName("argocd")).toBe("argocd");
  });

  it("reads the prompt format: user messages, expected agents as routing, behaviour as the judge's criterion", () => {
    const text = `name: single_agent_tests
description: d
prompts:
  - id: "github_and_jira"
    messages:
      - role: "user"
        content: "Create a Jira issue for the latest GitHub issue"
    expected_output: "Created PLAT-456"
    expected_agents: ["github_tools_agent", "jira_tools_agent"]
    expected_behavior: "Should use GitHub then Jira"
`;
    const [c] = promptSet(text, "evals/datasets/single_agent.yaml").cases;
    expect(c).toMatchObject({
      key: "caipe-single_agent_tests/github_and_jira",
      messages: ["Create a Jira issue for the latest GitHub issue"],
      target: "supervisor",
      expect: {
        agents: { alternatives: [["github", "jira"]], match: "any-order" },
        rubric: ["Should use GitHub then Jira"],
        reference: "Created PLAT-456",
      },
    });
  });

  it("reads the strict-match format: every solution an acceptable exact sequence of agents", () => {
    const text = `tests:
  jira_agent_1:
    input: |
      show jira version
    reference_trajectory:
      solution_1: __start__;agent_jira
      solution_2: __start__;agent_jira;agent_confluence
    metadata:
      comments: |
        Shows the version.
`;
    const [c] = strictMatchCases(text, "x.yaml", "jira");
    expect(c?.messages).toEqual(["show jira version"]);
    expect(c?.expect.agents).toEqual({ alternatives: [["jira"], ["jira", "confluence"]], match: "exact" });
  });

  it("pins the commit the CAIPE interop tests pin", () => {
    expect(CAIPE_EVALS_COMMIT).toBe(CAIPE_COMMIT);
  });

  it("says which setting to give when CAIPE's repository is not there", () => {
    expect(() => caipeSource({})).toThrow(/set CAIPE_GIT_DIR to a clone of cnoe-io\/ai-platform-engineering/);
    expect(() => caipeSource({ CAIPE_SOURCE_DIR: "/nowhere" })).toThrow(
      /CAIPE_SOURCE_DIR=\/nowhere holds no evals\/datasets/,
    );
  });

  const mirror =
    process.env.CAIPE_GIT_DIR ??
    join(
      import.meta.dirname,
      "..",
      "..",
      "..",
      "..",
      "..",
      ".mirror",
      "cnoe-io+ai-platform-engineering",
      "repo",
    );
  it.skipIf(!existsSync(mirror))(
    "loads every CAIPE dataset unchanged from its repository at the pinned commit",
    () => {
      const source = caipeSource({ CAIPE_GIT_DIR: mirror });
      const single = loadCaipeSet("single_agent", source);
      const multi = loadCaipeSet("multi_agent", source);
      const strict = loadCaipeSet("strict_match", source);
      expect(single.cases.length).toBeGreaterThan(10);
      expect(multi.cases.length).toBeGreaterThan(5);
      const agents = new Set(strict.cases.flatMap((c) => c.expect.agents?.alternatives.flat() ?? []));
      // CAIPE's github and slack datasets at this commit are copies of argocd's: loaded as they are.
      expect([...agents].sort()).toEqual(["argocd", "aws", "confluence", "gitlab", "jira", "komodor"]);
      expect(new Set(strict.cases.map((c) => c.set)).size).toBe(8);
      expect(agents.has("template")).toBe(false);
      expect(
        single.cases.every((c) => c.expect.agents?.alternatives[0]?.every((a) => !a.includes("_"))),
      ).toBe(true);
      expect(() => loadCaipeSet("nonsense", source)).toThrow(/use caipe:single_agent/);
    },
  );
});
