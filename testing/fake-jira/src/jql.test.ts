import { describe, expect, it } from "vitest";
import { compileJql, JqlError } from "./jql.js";
import { buildState, defaultJiraSeed } from "./seed.js";

const state = buildState(defaultJiraSeed(), "agent@example.com");

function keys(jql: string): string[] {
  const compiled = compileJql(jql, state, new Date("2025-03-11T00:00:00Z"));
  return state.issues
    .filter((i) => compiled.matches(i))
    .sort(compiled.compare)
    .map((i) => i.key);
}

describe("JQL subset", () => {
  it("filters by project and quoted status, ignoring case", () => {
    expect(keys('project = plat AND status = "in progress"')).toEqual(["PLAT-1"]);
  });

  it("orders by created descending", () => {
    expect(keys("project = PLAT ORDER BY created DESC")).toEqual(["PLAT-4", "PLAT-2", "PLAT-1", "PLAT-3"]);
  });

  it("matches assignee by display name, email, accountId, currentUser() and EMPTY", () => {
    expect(keys('assignee = "Alice Nguyen" ORDER BY key ASC')).toEqual(["PLAT-1", "OPS-2"]);
    expect(keys("assignee = bob@example.com ORDER BY key ASC")).toEqual(["PLAT-4", "OPS-1"]);
    expect(keys("assignee = currentUser()")).toEqual(["PLAT-3"]);
    expect(keys("assignee IS EMPTY")).toEqual(["PLAT-2"]);
  });

  it("finds words with text ~ in summary, description and comments", () => {
    expect(keys('text ~ "socket timeout"')).toEqual(["PLAT-2"]);
    expect(keys('text ~ "prod next week"')).toEqual(["PLAT-1"]);
    expect(keys('summary ~ "disk"')).toEqual(["OPS-1"]);
  });

  it("supports OR, NOT, IN, statusCategory and relative dates", () => {
    expect(keys("project = OPS OR priority = Highest ORDER BY key ASC")).toEqual([
      "PLAT-4",
      "OPS-1",
      "OPS-2",
    ]);
    expect(keys('project = PLAT AND status NOT IN (Done, "In Review") ORDER BY key ASC')).toEqual([
      "PLAT-1",
      "PLAT-2",
    ]);
    expect(keys("statusCategory = Done ORDER BY key ASC")).toEqual(["PLAT-3", "OPS-2"]);
    expect(keys("created >= -4d ORDER BY created ASC")).toEqual(["PLAT-4", "OPS-1"]);
  });

  it("rejects unknown fields, values and broken syntax the way Jira words it", () => {
    expect(() => keys("colour = red")).toThrow(/Field 'colour' does not exist/);
    expect(() => keys("project = NOPE")).toThrow(/The value 'NOPE' does not exist for the field 'project'/);
    expect(() => keys('status = "Done')).toThrow(JqlError);
    expect(() => keys("project PLAT")).toThrow(/Expecting operator/);
  });
});
