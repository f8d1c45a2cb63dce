import { describe, expect, it } from "vitest";
import { repoRoot } from "../test/fixture.js";
import { caipeVariableNames, checkCaipeNames } from "./caipe-check.js";

describe("CAIPE's .env.example", () => {
  it("is read whole: about two hundred variables, the commented-out ones included", () => {
    const names = caipeVariableNames();
    expect(names.length).toBeGreaterThan(190);
    expect(names).toEqual(expect.arrayContaining(["GITHUB_APP_ID", "LANGGRAPH_CHECKPOINT_POSTGRES_DSN"]));
  });

  it("has each variable read by Switchboard or named at start-up as not used, with why", () => {
    expect(checkCaipeNames(repoRoot)).toEqual([]);
  });
});
