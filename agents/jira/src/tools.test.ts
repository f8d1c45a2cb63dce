import { describe, expect, it } from "vitest";
import type { JiraConnection } from "./client.js";
import { jiraTools } from "./tools.js";

// What each tool tells the policy a call acts on: nothing is called, so no connection is needed.
const tools = jiraTools({} as JiraConnection);
const resourceOf = (name: string, args: Record<string, unknown>) =>
  tools.find((one) => one.tool.name === name)?.resource?.(args);

describe("Jira tools name the project (and issue) a call acts on", () => {
  it("reads the project from an issue key, in upper case as Jira keeps keys", () => {
    expect(resourceOf("get_issue", { key: "PLAT-12" })).toEqual({ project: "PLAT", issue: "PLAT-12" });
    expect(resourceOf("add_comment", { key: "plat-12", body: "done" })).toEqual({
      project: "PLAT",
      issue: "PLAT-12",
    });
    expect(resourceOf("transition_issue", { key: "Data_Eng-7", status: "Done" })).toEqual({
      project: "DATA_ENG",
      issue: "DATA_ENG-7",
    });
  });

  it("takes the project argument of create_issue", () => {
    expect(resourceOf("create_issue", { project: "pay", summary: "Rotate keys" })).toEqual({
      project: "PAY",
    });
  });

  it("refuses a change on a numeric issue id (it names no project a policy could scope)", () => {
    expect(resourceOf("add_comment", { key: "10001", body: "x" })).toBeUndefined();
    expect(resourceOf("transition_issue", { key: "10001", status: "Done" })).toBeUndefined();
  });

  it("leaves JQL searches and the project list to the tool as a whole", () => {
    expect(resourceOf("search_issues", { jql: "project = PLAT" })).toBeUndefined();
    expect(resourceOf("list_projects", {})).toBeUndefined();
  });
});
