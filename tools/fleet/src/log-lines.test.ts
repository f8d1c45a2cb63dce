import { describe, expect, it } from "vitest";
import { formatLine } from "./log-lines.js";

describe("fleet log lines", () => {
  it("unpacks the runtime's JSON lines and keeps other output", () => {
    const line = JSON.stringify({
      level: 30,
      time: "2026-11-21T15:00:01.000Z",
      agent: "jira",
      port: 8006,
      msg: "jira agent ready",
    });
    expect(formatLine("jira", line, 10)).toBe("[jira]       15:00:01 info  jira agent ready port=8006");
    expect(formatLine("aws", "(node) warning", 10)).toBe("[aws]        (node) warning");
  });
});
