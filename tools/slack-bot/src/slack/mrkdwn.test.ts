import { describe, expect, it } from "vitest";
import { toMrkdwn } from "./mrkdwn.js";

describe("toMrkdwn", () => {
  it("writes the supervisor's markdown as Slack shows it: emphasis, links, lists, code, tables", () => {
    const text = toMrkdwn(
      [
        "## Open issues",
        "",
        "**2** issues in _PLAT_, ~~one~~ `stale`; see [the board](https://jira.example.com/b/1).",
        "",
        "- PLAT-1 Fix login",
        "  - needs review",
        "1. first",
        "",
        "| key | status |",
        "| --- | --- |",
        "| PLAT-1 | Open |",
        "| PLAT-22 | In Progress |",
        "",
        "```sh",
        "kubectl get pods",
        "```",
      ].join("\n"),
    );
    expect(text).toContain("*Open issues*");
    expect(text).toContain(
      "*2* issues in _PLAT_, ~one~ `stale`; see <https://jira.example.com/b/1|the board>.",
    );
    expect(text).toContain("• PLAT-1 Fix login\n    • needs review");
    expect(text).toContain("1. first");
    expect(text).toContain(
      "```\nkey      status\n-------  -----------\nPLAT-1   Open\nPLAT-22  In Progress\n```",
    );
    expect(text).toContain("```\nkubectl get pods\n```");
  });

  it("never lets an answer mention people or channels, or link to anything but the web", () => {
    const text = toMrkdwn("Ping <!channel> and <@U123> & [x](javascript:alert(1))");
    expect(text).not.toMatch(/<!channel>|<@U123>/);
    expect(text).toContain("&lt;!channel&gt;");
    expect(text).toContain("&amp;");
    expect(text).not.toContain("javascript:");
  });
});
