import { describe, expect, it } from "vitest";
import type { ConfluenceConnection } from "./client.js";
import { confluenceTools } from "./tools.js";

// What each tool tells the policy a call acts on: nothing is called, so no connection is needed.
const tools = confluenceTools({} as ConfluenceConnection);
const resourceOf = (name: string, args: Record<string, unknown>) =>
  tools.find((one) => one.tool.name === name)?.resource?.(args);

describe("Confluence tools name the space and page a call acts on", () => {
  it("names a site space's key in upper case (as Confluence keeps it) and a personal space's as given", () => {
    expect(resourceOf("create_page", { space: "ops", title: "Runbook", body: "b" })).toEqual({
      space: "OPS",
    });
    expect(resourceOf("create_page", { space: "~5f1a2b", title: "Notes", body: "b" })).toEqual({
      space: "~5f1a2b",
    });
    expect(
      resourceOf("create_page", { space: "ENG", title: "Child", body: "b", parent_id: "65537" }),
    ).toEqual({ space: "ENG", page: "65537" });
  });

  it("names the page a read or an update acts on", () => {
    expect(resourceOf("get_page", { id: "65537" })).toEqual({ page: "65537" });
    expect(resourceOf("update_page", { id: "65537", body: "new" })).toEqual({ page: "65537" });
  });

  it("leaves CQL searches to the tool as a whole", () => {
    expect(resourceOf("search", { cql: "space = OPS" })).toBeUndefined();
  });
});
