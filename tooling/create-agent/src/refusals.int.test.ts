import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyRepo, hashTree, run } from "../test/repo.js";
import { main } from "./main.js";
import { newAgent, removeAgent } from "./scaffold.js";
import { newFleetProblems, stageRepo } from "./staged-repo.js";

const bin = join(import.meta.dirname, "..", "bin", "create-agent.js");

/** Runs the command as a script or CI would (no terminal), capturing what it prints. */
async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("new-agent and remove-agent refusals", () => {
  let repo: string;
  let before: string;

  beforeAll(() => {
    repo = copyRepo();
    // A generated agent that another package depends on, to be refused removal.
    newAgent({ repoRoot: repo, name: "ledger", port: 8120 });
    mkdirSync(join(repo, "packages", "uses-ledger"));
    writeFileSync(
      join(repo, "packages", "uses-ledger", "package.json"),
      JSON.stringify({
        name: "@switchboard/uses-ledger",
        dependencies: { "@switchboard/agent-ledger": "workspace:*" },
      }),
    );
    before = hashTree(repo);
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it.each([
    [{ name: "Bad_Name" }, /lowercase letters, digits and single '-'/],
    [{ name: "supervisor" }, /reserved/],
    [{ name: "all-agents" }, /reserved/],
    [{ name: "jira" }, /agents\/jira already exists/],
    [{ name: "ledger" }, /agents\/ledger already exists/],
    [{ name: "atlassian" }, /\.env\.example already has ATLASSIAN_API_URL/],
    [{ name: "status-page", port: 8006 }, /Port 8006 is already used by service agent-jira/],
    [{ name: "status-page", port: 8120 }, /Port 8120 is already used by service agent-ledger/],
    // The host of configured agents holds 8100.
    [{ name: "status-page", port: 8100 }, /Port 8100 is already used by service dynamic-agents/],
    [{ name: "status-page", port: 80 }, /Port 80 is not valid/],
    // A contract agent on another port: every contract agent exists now, so fleet-edits.test.ts checks
    // that rule on a fleet without one; here the name itself is refused.
    [{ name: "splunk", port: 9000 }, /agents\/splunk already exists/],
    [{ name: "status-page", description: "two\nlines" }, /one line/],
  ])("refuses new-agent %o and writes nothing", (options, message) => {
    expect(() => newAgent({ repoRoot: repo, ...options })).toThrow(message);
    expect(hashTree(repo)).toBe(before);
  });

  it.each([
    ["supervisor", /cannot be removed/],
    [
      "nope",
      /no agent named "nope" under agents\/ \(agents: [a-z, -]*\bjira\b[a-z, -]*\bledger\b[a-z, -]*\)/,
    ],
    ["jira", /agents\/jira was not made by pnpm new-agent/],
    ["ledger", /packages\/uses-ledger depend on @switchboard\/agent-ledger/],
  ])("refuses remove-agent %s and changes nothing", (name, message) => {
    expect(() => removeAgent({ repoRoot: repo, name })).toThrow(message);
    expect(hashTree(repo)).toBe(before);
  });

  it("checks a staged copy with fleet-config: an agent without its service is caught before any write", () => {
    const staging = mkdtempSync(join(tmpdir(), "create-agent-stage-"));
    const packageDir = join(staging, "package");
    mkdirSync(join(packageDir, "src"), { recursive: true });
    writeFileSync(
      join(packageDir, "package.json"),
      JSON.stringify({ name: "@switchboard/agent-orphan", switchboard: { port: 8101 } }),
    );
    const staged = stageRepo(repo, staging, {
      composeText: readFileSync(join(repo, "docker-compose.dev.yaml"), "utf8"),
      envExampleText: readFileSync(join(repo, ".env.example"), "utf8"),
      chartText: readFileSync(join(repo, "charts/switchboard/values.yaml"), "utf8"),
      addAgent: { folder: "orphan", dir: packageDir },
    });
    const problems = newFleetProblems(repo, staged);
    expect(problems).toContain(
      'agents/orphan needs exactly one service in docker-compose.dev.yaml, found 0 (none); expected "agent-orphan".',
    );
    expect(problems).toContain(".env.example: add ENABLE_ORPHAN (supervisor wiring for agents/orphan).");
    expect(hashTree(repo)).toBe(before);
    rmSync(staging, { recursive: true, force: true });
  });

  it("explains itself on the command line: exit 1 for a refusal, 2 for usage, never a prompt without a terminal", async () => {
    const refused = await cli(["new", "Bad_Name", "--root", repo]);
    expect(refused).toMatchObject({ code: 1, out: "" });
    expect(refused.err).toMatch(/Agent name "Bad_Name" is not valid/);
    const noName = await cli(["new", "--root", repo]);
    expect(noName.code).toBe(2);
    expect(noName.err).toContain("Give the agent's name.");
    expect((await cli(["new", "x", "--port", "eighty", "--root", repo])).err).toContain(
      '"eighty" is not a port number',
    );
    expect((await cli(["remove", "ledger", "--port", "1", "--root", repo])).code).toBe(2);
    expect((await cli(["rename", "x"])).code).toBe(2);

    const viaBin = await run(process.execPath, [bin, "remove", "supervisor", "--root", repo], { cwd: repo });
    expect(viaBin.code).toBe(1);
    expect(viaBin.output).toContain("The supervisor is the fleet's entry point; it cannot be removed.");
    expect(hashTree(repo)).toBe(before);
  });
});
