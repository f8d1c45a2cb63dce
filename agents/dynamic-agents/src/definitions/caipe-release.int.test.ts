import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { readAppConfig } from "./app-config.js";

// CAIPE 0.6.0's config/app-config.yaml itself, read from CAIPE's repository (CAIPE_GIT_DIR, else a
// mirror beside the checkout) rather than the fixtures' copy of its data: skipped where it is absent.

function caipeGitDir(): string | undefined {
  if (process.env.CAIPE_GIT_DIR) return process.env.CAIPE_GIT_DIR;
  let dir = import.meta.dirname;
  for (let up = 0; up < 7; up++, dir = dirname(dir)) {
    const candidate = join(dir, ".mirror", "cnoe-io+ai-platform-engineering", "repo");
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

const gitDir = caipeGitDir();

describe.skipIf(!gitDir)("CAIPE 0.6.0's own app-config.yaml, from its repository", () => {
  const original = () =>
    execFileSync("git", ["-C", gitDir as string, "show", "0.6.0:config/app-config.yaml"], {
      encoding: "utf8",
    });

  it("is read unchanged: its models, and its workflow named as not run", () => {
    const result = readAppConfig(original(), {}, ".");
    if (!result.ok) throw new Error(result.problem.message);
    expect(result.config.models).toHaveLength(4);
    expect(result.config.agents.size).toBe(0);
    expect(result.config.problems).toEqual([]);
    expect(result.config.unused).toEqual([
      "workflow_configs (1 entry): ignored (CAIPE's workflows are not run by Switchboard)",
    ]);
  });

  it("is read with its commented examples opened, as a user fills them in", () => {
    // `mcp_servers: []` and `agents: []` opened, and every commented list item under them uncommented.
    const filled = original()
      .replace(/^(mcp_servers|agents): \[\]$/gm, "$1:")
      .replace(/^ {2}# ( {2}|- )/gm, "  $1");
    const result = readAppConfig(filled, { ARGOCD_MCP_URL: "https://argocd.example.com/mcp" }, ".");
    if (!result.ok) throw new Error(result.problem.message);
    const { config } = result;
    expect(config.problems).toEqual([]);
    expect(config.models.map((model) => model.modelId)).toContain("gpt-4o-mini");
    expect(config.toolSources.map((source) => source.id)).toEqual(["github", "argocd", "knowledge-base"]);
    expect(config.agents.get("default-agent")?.fields).toMatchObject({
      name: "Default Agent",
      model: { id: "gpt-4o", provider: "azure-openai" },
      visibility: "global",
      allowed_tools: {},
      subagents: [],
      enabled: true,
    });
  });
});
