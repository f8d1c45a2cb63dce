import { execFileSync, spawn } from "node:child_process";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { connectAgent } from "@switchboard/a2a-client";
import {
  AGENT_NODE_ARGS,
  enableVariableFor,
  envPrefixFor,
  listAgentPackages,
  SUPERVISOR,
} from "@switchboard/contract";
import { onlyAgents, startFleet } from "@switchboard/fleet";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { freePort } from "@switchboard-testing/test-agents";
import {
  callTool,
  recallUserMessages,
  replyFromToolResult,
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..", "..");
const fleetBin = join(root, "tools", "fleet", "bin", "fleet.js");
const chatBin = join(root, "tools", "cli", "bin", "switchboard.js");

interface ChatResult {
  code: number | null;
  json: { contextId: string; taskId: string; state: string; text: string };
}

/** Runs `switchboard` (what `pnpm chat` runs) as a separate process, as a script would. */
function runChat(args: string[]): Promise<ChatResult> {
  const child = spawn(process.execPath, [chatBin, ...args], {
    env: { PATH: process.env.PATH },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, json: JSON.parse(stdout) })));
}

describe("the local fleet", () => {
  let llm: ScriptedLlm;
  let jira: FakeJira;
  const dbName = uniqueDbName("fleet");

  const env = async (extra: Record<string, string> = {}): Promise<NodeJS.ProcessEnv> => ({
    PATH: process.env.PATH,
    LOG_LEVEL: "info",
    ...testMongoEnv(dbName),
    ...llm.env,
    ATLASSIAN_API_URL: jira.url,
    ATLASSIAN_EMAIL: jira.email,
    ATLASSIAN_TOKEN: jira.token,
    ...onlyAgents(root, ["jira"]),
    SUPERVISOR_PORT: String(await freePort()),
    JIRA_AGENT_PORT: String(await freePort()),
    WEB_PORT: String(await freePort()),
    ...extra,
  });

  beforeAll(async () => {
    llm = await startScriptedLlm({
      script: rules(
        [
          ...routeByAgentPrefix(),
          {
            toolOffered: "call_agent",
            lastUser: /what did I ask/,
            reply: recallUserMessages(),
          },
          {
            lastUser: /open issues in ([A-Z]+)/,
            reply: (_r, { match }) => callTool("search_issues", { jql: `project = ${match?.[1]}` }),
          },
          { afterTool: true, reply: replyFromToolResult() },
        ],
        say("ok"),
      ),
    });
    jira = await startFakeJira();
  });
  afterAll(async () => {
    await Promise.all([llm.close(), jira.close()]);
  });

  it("starts all sixteen subagents, those without their vendor's credentials too, and the supervisor wired to each", async () => {
    // What `npm start` runs with every agent enabled: Jira has its (fake) vendor, every other subagent
    // starts without credentials in its degraded mode (it serves its card and names its missing
    // settings when a turn needs them). One fleet for all sixteen: its start is most of this test.
    const subagents = listAgentPackages(root)
      .map((agent) => agent.name)
      .filter((name) => name !== SUPERVISOR);
    expect(subagents).toHaveLength(16);
    const lines: string[] = [];
    const fleet = await startFleet({
      root,
      env: await env({
        ...Object.fromEntries(subagents.map((name) => [enableVariableFor(name), "true"])),
        ...Object.fromEntries(
          await Promise.all(
            subagents.map(async (name) => [`${envPrefixFor(name)}_AGENT_PORT`, String(await freePort())]),
          ),
        ),
      }),
      onLine: (agent, line) => lines.push(`${agent} ${line}`),
    });
    try {
      expect(fleet.failed).toEqual([]);
      expect(fleet.agents.map((agent) => agent.name).sort()).toEqual(subagents);
      for (const agent of fleet.agents) {
        const ready = await fetch(`${agent.url}/ready`);
        expect({ agent: agent.name, status: ready.status }).toEqual({ agent: agent.name, status: 200 });
      }
      // Every process runs with the node options the image's CMD has, as `ps` shows them.
      for (const member of [fleet.supervisor, ...fleet.agents]) {
        const commandLine = execFileSync("ps", ["-o", "args=", "-p", String(member.process.pid)], {
          encoding: "utf8",
        });
        const [, ...args] = commandLine.trim().split(/\s+/);
        expect(args.slice(0, AGENT_NODE_ARGS.length + 1)).toEqual([
          ...AGENT_NODE_ARGS,
          join(root, "agents", member.name, "dist", "index.js"),
        ]);
      }
      // GET /subagents lists all sixteen by name, each reachable.
      const listed = async () =>
        (
          (await (await fetch(`${fleet.supervisor.url}/subagents`)).json()) as {
            subagents: Array<{ name: string; status: string }>;
          }
        ).subagents.map((one) => [one.name, one.status]);
      await expect
        .poll(listed, { timeout: 30_000, interval: 250 })
        .toEqual(subagents.map((name) => [name, "available"]));
      const connection = await connectAgent(fleet.supervisor.url);
      const answer = await connection.send({ text: "jira: open issues in PLAT" });
      expect(answer.text).toContain("PLAT-1");
      expect(lines.some((line) => line.startsWith("jira ") && line.includes("jira agent ready"))).toBe(true);
      expect(
        lines.some((line) => line.startsWith("supervisor ") && line.includes("subagent jira joined")),
      ).toBe(true);
    } finally {
      await fleet.stop();
    }
  });

  it("the chat client resumes a conversation after the whole fleet restarts", async () => {
    const settings = await env();
    const chat = (args: string[]) =>
      runChat(["--url", `http://127.0.0.1:${settings.SUPERVISOR_PORT}`, "--json", ...args]);
    let fleet = await startFleet({ root, env: settings });
    let first: ChatResult;
    try {
      first = await chat(["--message", "jira: open issues in OPS"]);
      expect(first.code).toBe(0);
      expect(first.json.text).toContain("OPS-1");
    } finally {
      await fleet.stop();
    }
    fleet = await startFleet({ root, env: settings });
    try {
      const resumed = await chat(["--context", first.json.contextId, "--message", "what did I ask before?"]);
      expect(resumed.code).toBe(0);
      expect(resumed.json.contextId).toBe(first.json.contextId);
      expect(resumed.json.text).toContain("jira: open issues in OPS");
    } finally {
      await fleet.stop();
    }
  });

  it("reports an agent that fails to start with its output, and runs the rest", async () => {
    const busy: Server = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => busy.listen(port, "127.0.0.1", resolve));
    try {
      const fleet = await startFleet({ root, env: await env({ JIRA_AGENT_PORT: String(port) }) });
      try {
        expect(fleet.agents).toEqual([]);
        expect(fleet.failed.map((failure) => failure.name)).toEqual(["jira"]);
        expect(fleet.failed[0]?.error).toMatch(/EADDRINUSE/);
        expect((await fetch(`${fleet.supervisor.url}/health`)).ok).toBe(true);
      } finally {
        await fleet.stop();
      }
    } finally {
      busy.close();
    }
  });

  it("`npm start`'s runner prints the URLs and stops every process on Ctrl-C", async () => {
    const settings = await env({ MCP_SERVER_PORT: String(await freePort()) });
    const child = spawn(process.execPath, [fleetBin], {
      env: settings,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    await expect.poll(() => output, { timeout: 60_000, interval: 200 }).toContain("Talk to the supervisor");
    expect(output).toContain(`Supervisor   http://localhost:${settings.SUPERVISOR_PORT}`);
    expect(output).toContain(`jira         http://localhost:${settings.JIRA_AGENT_PORT}`);
    expect(output).toContain(`Open the web chat:       http://localhost:${settings.WEB_PORT}`);
    expect(output).toContain(`mcp server   http://localhost:${settings.MCP_SERVER_PORT}/mcp`);
    expect(output).toMatch(/\[jira\] +\d\d:\d\d:\d\d info +jira agent ready/);

    const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    for (const port of [
      settings.SUPERVISOR_PORT,
      settings.JIRA_AGENT_PORT,
      settings.WEB_PORT,
      settings.MCP_SERVER_PORT,
    ]) {
      await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    }
  });
});
