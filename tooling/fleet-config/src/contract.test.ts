import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CONTRACT_PORTS } from "@switchboard/contract";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../test/fixture.js";

/** `<agent> <port>` pairs in a text, e.g. "jira 8006", less the web UI's. */
function portsIn(text: string): Record<string, number> {
  return Object.fromEntries(
    [...text.matchAll(/\b([a-z]+) (\d{4})\b/g)]
      .filter((match) => match[1] !== "UI")
      .map((match) => [match[1], Number(match[2])]),
  );
}

// CI clones the repository with shared/ beside it; elsewhere the team's design page may be absent.
const design = join(repoRoot, "..", "shared", "DESIGN.md");

describe("contract ports", () => {
  it("are the ones docs/CONTRACT.md gives", () => {
    const text = readFileSync(join(repoRoot, "docs", "CONTRACT.md"), "utf8");
    const paragraph = text.slice(text.indexOf("Contract ports:"), text.indexOf("the web UI"));
    expect(portsIn(paragraph)).toEqual(CONTRACT_PORTS);
  });

  it.skipIf(!existsSync(design))("match the ports row of DESIGN.md", () => {
    const row = readFileSync(design, "utf8")
      .split("\n")
      .find((line) => line.startsWith("| ports"));
    expect(portsIn((row ?? "").split("; web UI")[0] ?? "")).toEqual(CONTRACT_PORTS);
  });
});
