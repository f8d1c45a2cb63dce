import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { connectAgent } from "@switchboard/a2a-client";
import { checkFleet } from "@switchboard/fleet-config";
import { type AgentProcess, startAgentProcess } from "@switchboard-testing/test-agents";
import {
  callTool,
  replyFromToolResult,
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { startItemsApi } from "../test/items-api.js";
import { copyRepo, linkPythonEnv, type RunResult, run } from "../test/repo.js";

const NAME = "status-page";
const PACKAGE = `@switchboard/agent-${NAME}`;
/** An agent whose tools come from a published MCP server (--mcp-command), made beside the first. */
const MCP_NAME = "team-memory";
const MCP_PACKAGE = `@switchboard/agent-${MCP_NAME}`;
// Each step (install, build, the generated tests, …) runs well under this on a quiet 2-core machine
// (the generated tests: 26 s quiet, 73 s in a full npm test); the slowest seen was 373 s, when the
// copy still built its own Python venv and a benchmark loaded both cores beside the suite.
const STEP_TIMEOUT = 600_000;

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
 * The whole path a developer takes, in a copy of the repository: pnpm new-agent (an API agent, and
 * one whose tools come from a published MCP server), install, build, lint, typecheck, the generated
 * tests, the API agent behind the supervisor, then pnpm remove-agent. Both agents share the copy and
 * each step, as two agents made in one clone do: each step's set-up is paid once.
 */
describe("pnpm new-agent, end to end in a copy of the repository", () => {
  let repo: string;
  /**
   * pnpm's metadata cache for this run, empty at the start. Installing a new package resolves its
   * dependencies, which needs package metadata that a frozen-lockfile install never stores, so a
   * machine's warm cache could hide an install that fails on a fresh one (ERR_PNPM_NO_OFFLINE_META).
   * The store stays the machine's: the workspace install already put every package there.
   */
  let pnpmCache: string;
  let original: { compose: string; envExample: string; chart: string };
  const durations: Record<string, number> = {};

  const step = async (label: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> => {
    const started = Date.now();
    const result = await run("pnpm", args, {
      cwd: repo,
      env: { npm_config_cache_dir: pnpmCache, ...env },
      timeoutMs: STEP_TIMEOUT,
    });
    durations[label] = Date.now() - started;
    if (result.code !== 0)
      throw new Error(`${label} (pnpm ${args.join(" ")}) failed:\n${result.output.slice(-6000)}`);
    return result;
  };
  const read = (file: string) => readFileSync(join(repo, file), "utf8");

  beforeAll(async () => {
    repo = copyRepo("create-agent-e2e-");
    // Its first install takes minutes on a loaded machine: hence this hook's limit.
    await linkPythonEnv(repo);
    pnpmCache = mkdtempSync(join(tmpdir(), "create-agent-pnpm-cache-"));
    original = {
      compose: read("docker-compose.dev.yaml"),
      envExample: read(".env.example"),
      chart: read("charts/switchboard/values.yaml"),
    };
  }, 600_000);
  afterAll(() => {
    console.log("step durations (ms):", durations);
    rmSync(repo, { recursive: true, force: true });
    if (pnpmCache) rmSync(pnpmCache, { recursive: true, force: true });
  });

  it(
    "generates a package that installs, builds, lints, typechecks and passes its own tests unedited",
    async () => {
      // A fresh copy has no node_modules: install what is there, then run the root script itself.
      await step("install (copy)", ["install", "--prefer-offline", "--no-frozen-lockfile"]);
      const created = await step("new-agent", [
        "new-agent",
        NAME,
        "--description",
        "Reads and updates the company status page",
      ]);
      expect(created.output).toContain(`Created agents/${NAME} (${PACKAGE}) on port 8017`);
      expect(created.output).toContain("Next steps:");
      expect(checkFleet(repo)).toEqual([]);
      expect(read("docker-compose.dev.yaml")).toContain(
        '  agent-status-page:\n    profiles: ["status-page", "all-agents"]',
      );
      expect(read(".env.example")).toContain("STATUS_PAGE_API_URL=\nSTATUS_PAGE_API_TOKEN=\n");
      const chart = parse(read("charts/switchboard/values.yaml"));
      expect(chart.agents["status-page"]).toEqual({
        enabled: true,
        port: 8017,
        env: { STATUS_PAGE_API_URL: "" },
        secretKeys: ["STATUS_PAGE_API_TOKEN"],
      });
      expect(chart.secrets.values).toHaveProperty("STATUS_PAGE_API_TOKEN", "");

      // An MCP-backed agent, on the next free port: its tools come from the server the command starts.
      // The command itself (pnpm new-agent is a build of it, then this): with status-page not yet
      // installed, turbo would hash every package anew and rebuild what the step above just built.
      const createdMcp = await run(
        process.execPath,
        ["tooling/create-agent/bin/create-agent.js", "new", MCP_NAME, "--mcp-command", memoryServerCommand()],
        { cwd: repo, timeoutMs: STEP_TIMEOUT },
      );
      expect(createdMcp.code, createdMcp.output).toBe(0);
      expect(createdMcp.output).toContain(`its tools from the MCP server "${MCP_NAME}"`);
      expect(checkFleet(repo)).toEqual([]);
      expect(read(`agents/${MCP_NAME}/src/agent.ts`)).toContain(
        `"${MCP_NAME}": {\n      command: "${process.execPath}",`,
      );
      expect(read(".env.example")).toContain("TEAM_MEMORY_MCP_SERVERS=\n");
      expect(parse(read("charts/switchboard/values.yaml")).agents[MCP_NAME]).toEqual({
        enabled: true,
        port: 8018,
      });
      expect(existsSync(join(repo, "agents", MCP_NAME, "src", "client.ts"))).toBe(false);

      // Not --offline: resolving the new package needs package metadata (see pnpmCache), which
      // --prefer-offline downloads when the cache lacks it; the packages come from the store.
      await step("install (new package)", ["install", "--prefer-offline", "--no-frozen-lockfile"]);
      await step("build", [
        "exec",
        "turbo",
        "run",
        "build",
        `--filter=${PACKAGE}...`,
        `--filter=${MCP_PACKAGE}...`,
        "--filter=@switchboard/supervisor...",
      ]);
      await step("lint", ["exec", "biome", "check", `agents/${NAME}`, `agents/${MCP_NAME}`]);
      await step("typecheck", ["--filter", PACKAGE, "--filter", MCP_PACKAGE, "typecheck"]);
      await step("generated tests", ["--filter", PACKAGE, "--filter", MCP_PACKAGE, "test"], {
        MONGODB_URI: testMongoUri(),
      });
      const report = (name: string) =>
        JSON.parse(read(`agents/${name}/.reports/vitest.json`)) as Record<string, number>;
      expect(report(NAME)).toMatchObject({ numPassedTests: 9, numFailedTests: 0, numPendingTests: 0 });
      expect(report(MCP_NAME)).toMatchObject({ numPassedTests: 3, numFailedTests: 0, numPendingTests: 0 });
    },
    STEP_TIMEOUT * 3,
  );

  describe("behind the supervisor", () => {
    const dbName = uniqueDbName("create_agent");
    const processes: AgentProcess[] = [];
    let llm: ScriptedLlm;
    let api: Awaited<ReturnType<typeof startItemsApi>>;
    let mongo: MongoClient;
    const token = `token-${randomUUID()}`;

    beforeAll(async () => {
      [llm, api, mongo] = await Promise.all([
        startScriptedLlm({
          script: rules(
            [
              ...routeByAgentPrefix(),
              { toolOffered: "list_items", lastUser: /^list items$/, reply: callTool("list_items", {}) },
              { afterTool: true, reply: replyFromToolResult() },
            ],
            say("I do not know what to do with that."),
          ),
        }),
        startItemsApi(token),
        MongoClient.connect(testMongoUri()),
      ]);
    });
    afterAll(async () => {
      await Promise.all(processes.splice(0).map((agent) => agent.kill("SIGTERM")));
      await mongo?.db(dbName).dropDatabase();
      await Promise.all([mongo?.close(), llm?.close(), api?.close()]);
    });

    it(
      "is discovered by the supervisor, answers a routed turn with the forwarded contextId, and keeps checkpoints_status-page",
      async () => {
        expect(existsSync(join(repo, "agents", NAME, "dist", "index.js"))).toBe(true);
        const common = {
          ...testMongoEnv(dbName),
          ...llm.env,
        };
        const agent = await startAgentProcess(join(repo, "agents", NAME), {
          env: { ...common, STATUS_PAGE_API_URL: api.url, STATUS_PAGE_API_TOKEN: token },
        });
        processes.push(agent);
        const supervisor = await startAgentProcess(join(repo, "agents", "supervisor"), {
          env: { ...common, ENABLE_STATUS_PAGE: "true", STATUS_PAGE_AGENT_URL: agent.url },
        });
        processes.push(supervisor);

        const connection = await connectAgent(supervisor.url);
        const contextId = `conv-${randomUUID()}`;
        let answer = await connection.send({ text: `${NAME}: list items`, contextId });
        // The supervisor discovers subagents in the background; give it a moment on a slow machine.
        for (let attempt = 0; attempt < 20 && !answer.text?.includes("EU region"); attempt += 1) {
          await new Promise((resolve) => setTimeout(resolve, 500));
          answer = await connection.send({ text: `${NAME}: list items`, contextId });
        }
        expect(answer.state).toBe("completed");
        expect(answer.text).toContain("7 [open] Status page for the EU region");
        expect(api.requests).toContain("GET /items");

        const db = mongo.db(dbName);
        expect(
          await db.collection(`checkpoints_${NAME}`).countDocuments({ thread_id: contextId }),
        ).toBeGreaterThan(0);
        expect(
          await db.collection("checkpoints_supervisor").countDocuments({ thread_id: contextId }),
        ).toBeGreaterThan(0);
        expect(await db.collection(`tasks_${NAME}`).countDocuments({ contextId })).toBeGreaterThan(0);
      },
      STEP_TIMEOUT,
    );
  });

  it(
    "pnpm remove-agent undoes every registration, leaving the fleet files as they were",
    async () => {
      const removed = await step("remove-agent", ["remove-agent", NAME]);
      expect(removed.output).toContain(`Removed agents/${NAME}`);
      expect(existsSync(join(repo, "agents", NAME))).toBe(false);
      // The command itself, as for the MCP agent's creation: the root script's build in front of it
      // ran for the removal above, and running it again only repeats that (8 s on 2 cores).
      const started = Date.now();
      const removedMcp = await run(
        process.execPath,
        ["tooling/create-agent/bin/create-agent.js", "remove", MCP_NAME],
        { cwd: repo, timeoutMs: STEP_TIMEOUT },
      );
      durations["remove-agent (MCP)"] = Date.now() - started;
      expect(removedMcp.code, removedMcp.output).toBe(0);
      expect(removedMcp.output).toContain(`Removed agents/${MCP_NAME}`);
      expect(existsSync(join(repo, "agents", MCP_NAME))).toBe(false);
      expect(read("docker-compose.dev.yaml")).toBe(original.compose);
      expect(read(".env.example")).toBe(original.envExample);
      expect(read("charts/switchboard/values.yaml")).toBe(original.chart);
      expect(checkFleet(repo)).toEqual([]);
    },
    STEP_TIMEOUT,
  );
});
