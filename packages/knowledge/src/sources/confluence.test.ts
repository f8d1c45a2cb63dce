import { describe, expect, it } from "vitest";
import { pageGrant, pageLink, restrictionGrant, spaceGrant } from "./confluence.js";
import { readersOf } from "./vendor-readers.js";

const read = { operation: "read", targetType: "space" };
const subjects = (groups: string[], users: string[] = []) => ({
  group: { results: groups.map((name) => ({ name })) },
  user: { results: users.map((accountId) => ({ accountId })) },
});

describe("Confluence links", () => {
  it("puts a page's web UI path under the source's site, and nothing a server made up", () => {
    const site = "https://acme.atlassian.net/wiki";
    expect(pageLink(site, { id: "1", _links: { webui: "/spaces/OPS/pages/1/Runbook" } })).toBe(
      `${site}/spaces/OPS/pages/1/Runbook`,
    );
    for (const webui of ["//evil.example/x", "javascript:alert(1)", "https://evil.example/", undefined]) {
      expect(pageLink(site, { id: "1", ...(webui ? { _links: { webui } } : {}) })).toBe(
        `${site}/pages/viewpage.action?pageId=1`,
      );
    }
  });
});

describe("Confluence readers", () => {
  it("reads a space's read permission: anonymous access is everyone, else its groups and users", () => {
    expect(spaceGrant([{ operation: read, subjects: subjects(["sre"], ["alice"]) }])).toEqual({
      groups: ["sre"],
      users: ["alice"],
    });
    expect(spaceGrant([{ operation: read, anonymousAccess: true }])).toBe("everyone");
    // Other operations (create, administer) grant no reading.
    expect(
      spaceGrant([
        { operation: { operation: "administer", targetType: "space" }, subjects: subjects(["admins"]) },
        { operation: { operation: "read", targetType: "page" }, subjects: subjects(["x"]) },
      ]),
    ).toEqual({ groups: [], users: [] });
  });

  it("lets restrictions decide where a page or an ancestor has them, every level holding", () => {
    const space = { groups: ["staff"], users: [] };
    expect(pageGrant(space, [])).toBe(space);
    expect(pageGrant("everyone", [{ groups: ["sre"], users: ["alice"] }])).toEqual({
      groups: ["sre"],
      users: ["alice"],
    });
    // An ancestor restricted to sre and the page to sre and dev: only sre reads it.
    expect(
      pageGrant(space, [
        { groups: ["sre"], users: [] },
        { groups: ["sre", "dev"], users: [] },
      ]),
    ).toEqual({ groups: ["sre"], users: [] });
    // Levels with nothing in common: nobody.
    expect(
      readersOf(
        pageGrant(space, [
          { groups: ["sre"], users: [] },
          { groups: ["dev"], users: [] },
        ]),
        { matchUsers: true },
      ),
    ).toBeUndefined();
    expect(restrictionGrant(subjects([]))).toBeUndefined();
    expect(restrictionGrant(undefined)).toBeUndefined();
  });

  it("never turns a grant of users into a wider one when users do not count", () => {
    // A page restricted to alice alone, users not matched: stored for nobody, never for the space.
    const grant = pageGrant({ groups: ["staff"], users: [] }, [{ groups: [], users: ["alice"] }]);
    expect(readersOf(grant, { matchUsers: false })).toBeUndefined();
    expect(readersOf(grant, { matchUsers: true })).toEqual({ users: ["alice"] });
    expect(readersOf({ groups: [" sre ", "sre", ""], users: ["bob"] }, { matchUsers: false })).toEqual({
      groups: ["sre"],
    });
    expect(readersOf({ groups: [], users: [] }, { matchUsers: true })).toBeUndefined();
  });
});
