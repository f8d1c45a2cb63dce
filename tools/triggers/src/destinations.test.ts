import { describe, expect, it } from "vitest";
import { Destinations } from "./destinations.js";

const destinations = new Destinations({});

describe("a destination's target from the payload", () => {
  it("is filled as plain text and kept when it has the vendor's id shape", () => {
    const payload = {
      issue: { key: "PLAT-12" },
      repository: { full_name: "acme/api" },
      number: 7,
      id: "PT4KHLK",
    };
    expect(destinations.resolve({ kind: "jira_comment", issue: "{{issue.key}}" }, payload)).toEqual({
      kind: "jira_comment",
      issue: "PLAT-12",
    });
    expect(
      destinations.resolve(
        { kind: "github_comment", repo: "{{repository.full_name}}", issue: "{{number}}" },
        payload,
      ),
    ).toEqual({ kind: "github_comment", repo: "acme/api", issue: "7" });
    expect(destinations.resolve({ kind: "pagerduty_note", incident: "{{id}}" }, payload)).toEqual({
      kind: "pagerduty_note",
      incident: "PT4KHLK",
    });
  });

  it("is refused, naming the setting, when the payload makes it a path, a query or nothing", () => {
    const hostile = { key: "PLAT-1/../../issue/PLAT-2", repo: "acme/api/../../x/y", number: "1?x=", id: "" };
    expect(() => destinations.resolve({ kind: "jira_comment", issue: "{{key}}" }, hostile)).toThrow(
      /jira_comment\.issue "\{\{key\}\}" gave "PLAT-1\/\.\.\/\.\.\/issue\/PLAT-2", which is not one/,
    );
    expect(() =>
      destinations.resolve({ kind: "github_comment", repo: "{{repo}}", issue: "1" }, hostile),
    ).toThrow(/github_comment\.repo/);
    expect(() =>
      destinations.resolve({ kind: "github_comment", repo: "acme/api", issue: "{{number}}" }, hostile),
    ).toThrow(/github_comment\.issue/);
    expect(() => destinations.resolve({ kind: "pagerduty_note", incident: "{{id}}" }, hostile)).toThrow(
      /pagerduty_note\.incident/,
    );
  });

  it("names the settings a destination needs when they are missing", () => {
    expect(destinations.missing({ kind: "jira_comment", issue: "PLAT-1" })).toMatch(
      /ATLASSIAN_API_URL, ATLASSIAN_EMAIL and ATLASSIAN_TOKEN/,
    );
    expect(destinations.missing({ kind: "webex", roomId: "r" })).toMatch(
      /WEBEX_INTEGRATION_BOT_ACCESS_TOKEN or WEBEX_TOKEN/,
    );
    expect(destinations.missing({ kind: "webhook", url: "https://example.com" })).toBeUndefined();
  });
});
