import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { checkFleet } from "@switchboard/fleet-config";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { copyRepo, linkPythonEnv, type RunResult, run } from "../test/repo.js";

const NAME = "team-memory";
const PACKAGE = `@switchboard/agent-${NAME}`;
const STEP_TIMEOUT = 300_000;

/** The published memory server (npm @modelcontextprotocol/server-memory) as this Node runs it. */
function memoryServerCommand(): string {
  const require = createRequire(import.meta.url);
  const script = join(
    dirname(require.resolve("@modelcontextprotocol/server-memory/package.json")),
    "dist",
    "index.js",
  );
  return `"${process.execPath}" "${script}"`;
}

/**
 * pnpm new-agent --mcp-command in a copy of the repository: an agent whose tools come from a
 * published MCP server installs, builds, lints, typechecks and passes its generated tests, which
 * start it with that server; pnpm remove-agent takes it back.
 */
describe("pnpm new-agent --mcp-command, end to end in a copy of the repository", () => {
  let repo: string;
  let pnpmCache: string;
  let original: { compose: string; envExample: string; chart: string };
  const read = (file: string) => readFileSync(join(repo, file), "utf8");
  const step = async (label: string, args: string[]): Promise<RunResult> => {
    const result = await run("pnpm", args, {
      cwd: repo,
      env: { npm_config_cache_dir: pnpmCache },
      timeoutMs: STEP_TIMEOUT,
    });
    if (result.code !== 0)
      throw new Error(`${label} (pnpm ${args.join(" ")}) failed:\n${result.output.slice(-6000)}`);
    return result;
  };

  beforeAll(async () => {
    repo = copyRepo("create-mcp-agent-e2e-");
    // Its first install takes minutes on a loaded machine: hence this hook's limit.
    await linkPythonEnv(repo);
    pnpmCache = mkdtempSync(join(tmpdir(), "create-mcp-agent-pnpm-cache-"));
    original = {
      compose: read("docker-compose.dev.yaml"),
      envExample: read(".env.example"),
      chart: read("charts/switchboard/values.yaml"),
    };
  }, 600_000);
  afterAll(() => {
    rmSync(repo, { recursive: true, force: true });
    if (pnpmCache) rmSync(pnpmCache, { recursive: true, force: true });
  });

  it(
    "generates an MCP-backed agent whose generated tests pass against the real server",
    async () => {
      await step("install (copy)", ["install", "--prefer-offline", "--no-frozen-lockfile"]);
      // The agent adds no problem to the fleet files (any already there are someone else's work in progress).
      const before = checkFleet(repo);
      const created = await step("new-agent", ["new-agent", NAME, "--mcp-command", memoryServerCommand()]);
      expect(created.output).toContain(`its tools from the MCP server "${NAME}"`);
      expect(checkFleet(repo)).toEqual(before);
      expect(read(`agents/${NAME}/src/agent.ts`)).toContain(
        `"${NAME}": {\n      command: "${process.execPath}",`,
      );
      expect(read(".env.example")).toContain("TEAM_MEMORY_MCP_SERVERS=\n");
      expect(parse(read("charts/switchboard/values.yaml")).agents[NAME]).toEqual({
        enabled: true,
        port: 8017,
      });
      expect(existsSync(join(repo, "agents", NAME, "src", "client.ts"))).toBe(false);

      await step("install (new package)", ["install", "--prefer-offline", "--no-frozen-lockfile"]);
      await step("build", ["exec", "turbo", "run", "build", `--filter=${PACKAGE}...`]);
      await step("lint", ["exec", "biome", "check", `agents/${NAME}`]);
      await step("typecheck", ["--filter", PACKAGE, "typecheck"]);
      await step("generated tests", ["--filter", PACKAGE, "test"]);
      const report = JSON.parse(read(`agents/${NAME}/.reports/vitest.json`)) as Record<string, number>;
      expect(report).toMatchObject({ numPassedTests: 3, numFailedTests: 0, numPendingTests: 0 });

      const removed = await step("remove-agent", ["remove-agent", NAME]);
      expect(removed.output).toContain(`Removed agents/${NAME}`);
      expect(read("docker-compose.dev.yaml")).toBe(original.compose);
      expect(read(".env.example")).toBe(original.envExample);
      expect(read("charts/switchboard/values.yaml")).toBe(original.chart);
    },
    STEP_TIMEOUT * 4,
  );
});
