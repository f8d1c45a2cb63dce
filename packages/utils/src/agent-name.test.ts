import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SOURCE_CONDITION } from "@switchboard/vitest-config";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { describe, expect, it } from "vitest";
import { detectAgentName } from "./agent-name.js";

/** A throwaway package with an entry script, like agents/<name>/dist/index.js. */
function packageWithEntry(name: string): string {
  const root = scratchDir("agent-name");
  writeFileSync(join(root, "package.json"), JSON.stringify({ name }));
  mkdirSync(join(root, "dist"));
  const entry = join(root, "dist", "index.js");
  writeFileSync(entry, "");
  return entry;
}

/** This package: tsx and vitest resolve from here, whatever folder the tests were started in. */
const packageDir = join(import.meta.dirname, "..");

describe("agent name detection", () => {
  it("walks up from the entry script to the nearest package.json", () => {
    const entry = packageWithEntry("@switchboard/agent-jira");
    expect(detectAgentName({ env: {}, entryScript: entry })).toEqual({
      name: "jira",
      source: "entry script",
      packageName: "@switchboard/agent-jira",
    });
  });

  it("prefers the entry script's package over npm_package_name", () => {
    const entry = packageWithEntry("@switchboard/supervisor");
    const detected = detectAgentName({
      env: { npm_package_name: "@switchboard/agent-aws" },
      entryScript: entry,
    });
    expect(detected.name).toBe("supervisor");
  });

  it("uses npm_package_name when the entry script is a tool in node_modules", () => {
    const entry = join(packageDir, "node_modules", "vitest", "vitest.mjs");
    const detected = detectAgentName({
      env: { npm_package_name: "@switchboard/agent-aws" },
      entryScript: entry,
    });
    expect(detected).toMatchObject({ name: "aws", source: "npm_package_name" });
  });

  it("lets AGENT_NAME override everything", () => {
    const entry = packageWithEntry("@switchboard/agent-jira");
    const detected = detectAgentName({
      env: { AGENT_NAME: "jira-eu", npm_package_name: "x" },
      entryScript: entry,
    });
    expect(detected).toEqual({ name: "jira-eu", source: "AGENT_NAME" });
  });

  it.each([
    ["$where", "AGENT_NAME"],
    ["jira.prod", "AGENT_NAME"],
    ["Jira", "AGENT_NAME"],
    ["a".repeat(64), "AGENT_NAME"],
    ["has space", "AGENT_NAME"],
    ["nul\u0000byte", "AGENT_NAME"],
  ])("rejects %j, which would make an invalid collection name", (name) => {
    expect(() => detectAgentName({ env: { AGENT_NAME: name }, entryScript: undefined })).toThrow(
      /cannot name MongoDB collections/,
    );
  });

  it("rejects a package whose name makes an invalid collection name", () => {
    const entry = packageWithEntry("@switchboard/agent-$bad");
    expect(() => detectAgentName({ env: {}, entryScript: entry })).toThrow(/agent-\$bad/);
  });

  it("says how to fix it when nothing names the agent", () => {
    expect(() => detectAgentName({ env: {}, entryScript: undefined })).toThrow(/set AGENT_NAME/);
  });

  it("detects the name of a real process from its entry script", () => {
    const entry = packageWithEntry("@switchboard/agent-pagerduty");
    const module = new URL("./agent-name.ts", import.meta.url).pathname;
    writeFileSync(
      entry,
      `import(${JSON.stringify(module)}).then((m) => process.stdout.write(m.detectAgentName().name));`,
    );
    // From sources all the way down, like the test itself: nothing needs building.
    const result = spawnSync(
      process.execPath,
      [`--conditions=${SOURCE_CONDITION}`, "--import", "tsx", entry],
      {
        env: { PATH: process.env.PATH },
        encoding: "utf8",
        cwd: packageDir,
      },
    );
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("pagerduty");
  });
});
