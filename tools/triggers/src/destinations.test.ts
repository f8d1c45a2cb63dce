import { describe, expect, it } from "vitest";
import { Destinations, webexApprovalCard } from "./destinations.js";

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

describe("a waiting change's Webex card", () => {
  it("carries Approve and Decline for its run as the Webex bot's cards do, and renders a payload's markup as written", () => {
    const hostile = "File [a bug](https://evil.example/login) **now** <@all> {{x}}";
    const card = webexApprovalCard({
      taskId: "t1",
      runId: "run-1",
      title: "Title [x](https://evil.example)",
      status: "input-required",
      text: hostile,
      expiresAt: new Date("2026-11-29T15:00:00Z"),
    }) as { contentType: string; content: { version: string; body: unknown[]; actions: unknown[] } };
    expect(card.contentType).toBe("application/vnd.microsoft.card.adaptive");
    expect(card.content.version).toBe("1.3");
    // The Webex bot's own action ids (its webex/card.ts), with the run as the confirmation.
    expect(card.content.actions).toEqual([
      expect.objectContaining({ data: { action: "switchboard_approve", confirmation: "trigger:run-1" } }),
      expect.objectContaining({ data: { action: "switchboard_decline", confirmation: "trigger:run-1" } }),
    ]);
    // Text only in TextRuns (no markdown rendered), never in a TextBlock.
    const blocks = card.content.body as Array<{
      type: string;
      inlines?: Array<{ type: string; text: string }>;
    }>;
    expect(blocks.every((block) => block.type === "RichTextBlock")).toBe(true);
    const runs = blocks.flatMap((block) => block.inlines ?? []);
    expect(runs.every((run) => run.type === "TextRun")).toBe(true);
    expect(runs[1]?.text).toContain(hostile);
    expect(runs[1]?.text).toContain("until 2026-11-29T15:00:00.000Z");
  });
});
