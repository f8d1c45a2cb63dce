import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CONTRACT_PORTS } from "@switchboard/contract";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../test/fixture.js";

// CI clones the repository with shared/ beside it; elsewhere the design page may be absent.
const design = join(repoRoot, "..", "shared", "DESIGN.md");

describe("contract ports", () => {
  it.skipIf(!existsSync(design))("match the ports row of DESIGN.md", () => {
    const row = readFileSync(design, "utf8")
      .split("\n")
      .find((line) => line.startsWith("| ports"));
    const ports = Object.fromEntries(
      [...(row ?? "").matchAll(/([a-z]+) (\d{4})/g)].map((match) => [match[1], Number(match[2])]),
    );
    expect(ports).toEqual(CONTRACT_PORTS);
  });
});
