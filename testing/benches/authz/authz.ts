// pnpm bench:authz — what deciding "who may do what" costs. First the decision itself: Cedar's
// PolicyEngine.decide on the shipped per-project example policies plus CAIPE-style role policies,
// for a reach and for a tool call on a project (p50/p95 over BENCH_DECISIONS). Then a whole turn:
// the Jira agent served twice in this process, once with a policy file and once without, both
// with AUTH_MODE=jwt (HS256 tokens signed here) and the same zero-latency scripted LLM, fake Jira
// and MongoDB; BENCH_SAMPLES turns each, interleaved. A turn is one hop to the agent with two
// decisions (reach, then the search tool's read). MongoDB: MONGODB_URI if set, else the test
// MongoDB (mongo-java-server).
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { connectAgent } from "@switchboard/a2a-client";
import { jiraAgent } from "@switchboard/agent-jira/agent";
import { PolicyEngine, parsePolicies, type RunningAgent, serveAgent } from "@switchboard/agent-runtime";
import { createLogger } from "@switchboard/common";
import { startFakeJira } from "@switchboard-testing/fake-jira";
import { callTool, replyFromToolResult, rules, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { startTestMongo } from "@switchboard-testing/test-mongo";
import { SignJWT } from "jose";
import { benchReport } from "../src/index.js";

const report = benchReport(new URL("./README.md", import.meta.url), "authz");

const DECISIONS = Number(process.env.BENCH_DECISIONS ?? 20_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const TARGET_DECISION_MS = 1;
const SECRET = "bench-authz-secret-of-at-least-32-characters";
const silent = createLogger({ level: "silent" });
const examples = join(import.meta.dirname, "..", "..", "..", "docs", "policies");

/** The shipped per-project example, plus role policies as RBAC_* would add, plus a rule for Jira's PLAT. */
const POLICY = `${readFileSync(join(examples, "per-project.cedar"), "utf8")}
@id("admins") permit(principal in Switchboard::Group::"platform-admins", action, resource);
@id("plat-changes") permit(principal in Switchboard::Group::"plat", action == Switchboard::Action::"change", resource in Jira::Project::"PLAT");
`;

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

function row(cells: string[]): string {
  return `| ${cells.join(" | ")} |`;
}

function benchDecisions(): Array<[string, number, number]> {
  const engine = new PolicyEngine(parsePolicies(POLICY, "bench policies"));
  const principal = {
    subject: "alice",
    groups: ["plat", "staff", "readers"],
    authenticated: true,
    email: "a@example.com",
  };
  const questions = {
    "reach an agent": { principal, action: "reach" as const, agent: "jira" },
    "change on a project": {
      principal,
      action: "change" as const,
      agent: "jira",
      tool: "create_issue",
      resource: { project: "PLAT" },
    },
  };
  const results: Array<[string, number, number]> = [];
  for (const [name, question] of Object.entries(questions)) {
    for (let i = 0; i < 2_000; i++) engine.decide(question); // warm-up
    const times: number[] = [];
    for (let i = 0; i < DECISIONS; i++) {
      const start = performance.now();
      engine.decide(question);
      times.push(performance.now() - start);
    }
    results.push([name, quantile(times, 0.5), quantile(times, 0.95)]);
  }
  return results;
}

async function main(): Promise<void> {
  report.print(`\nOne decision (Cedar, embedded), ${DECISIONS} each after warm-up\n`);
  report.print(row(["decision", "p50 ms", "p95 ms", `target p50 ≤ ${TARGET_DECISION_MS} ms`]));
  report.print(row(["---", "---", "---", "---"]));
  for (const [name, p50, p95] of benchDecisions()) {
    report.print(row([name, p50.toFixed(4), p95.toFixed(4), p50 <= TARGET_DECISION_MS ? "met" : "MISSED"]));
  }

  const mongo = process.env.MONGODB_URI ? undefined : await startTestMongo();
  const uri = process.env.MONGODB_URI ?? mongo?.uri ?? "";
  const jira = await startFakeJira();
  const llm = await startScriptedLlm({
    script: rules(
      [
        {
          lastUser: /^search: (.+)$/,
          reply: (_r, { match }) => callTool("search_issues", { jql: match?.[1] }),
        },
        { afterTool: "search_issues", reply: replyFromToolResult() },
      ],
      say("ok"),
    ),
  });
  const dir = mkdtempSync(join(tmpdir(), "bench-authz-"));
  const policyFile = join(dir, "policies.cedar");
  writeFileSync(policyFile, POLICY);
  const prefix = `bench_authz_${Date.now()}`;
  const auditKey = randomBytes(32).toString("hex");
  const env = (db: string, extra: Record<string, string>) => ({
    PORT: "0",
    HOST: "127.0.0.1",
    AGENT_NAME: "jira",
    MONGODB_URI: uri,
    LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: db,
    AUTH_MODE: "jwt",
    AUTH_JWT_SECRET: SECRET,
    // Audit lines keyed and anchored, as production runs them: their cost is in the numbers.
    AUDIT_HMAC_KEY: auditKey,
    AUDIT_ANCHOR_FILE: join(dir, "audit-anchor.jsonl"),
    AUTH_ISSUER: "switchboard-test",
    AUTH_AUDIENCE: "switchboard",
    ATLASSIAN_API_URL: jira.url,
    ATLASSIAN_EMAIL: jira.email,
    ATLASSIAN_TOKEN: jira.token,
    ...llm.env,
    ...extra,
  });
  const agents: Record<string, RunningAgent> = {
    "no policy": await serveAgent(jiraAgent, { env: env(`${prefix}_open`, {}), logger: silent }),
    "with policy": await serveAgent(jiraAgent, {
      env: env(`${prefix}_policy`, { AUTHZ_POLICY_FILE: policyFile }),
      logger: silent,
    }),
  };
  const token = await new SignJWT({ groups: ["plat", "staff"], email: "alice@example.com" })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer("switchboard-test")
    .setAudience("switchboard")
    .setSubject("alice")
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(SECRET));
  try {
    const connections = Object.fromEntries(
      await Promise.all(
        Object.entries(agents).map(
          async ([name, agent]) => [name, await connectAgent(agent.url, { token, logger: silent })] as const,
        ),
      ),
    );
    const times: Record<string, number[]> = { "no policy": [], "with policy": [] };
    const turn = async (name: string) => {
      const start = performance.now();
      const result = await connections[name]?.send({
        text: "search: project = PLAT",
        contextId: randomUUID(),
      });
      const elapsed = performance.now() - start;
      if (result?.state !== "completed") throw new Error(`${name}: the turn ended ${result?.state}`);
      return elapsed;
    };
    for (let i = 0; i < 20; i++) for (const name of Object.keys(times)) await turn(name); // warm-up
    for (let i = 0; i < SAMPLES; i++) {
      // Alternating order: neither side always runs on a warmer cache.
      const order = i % 2 ? ["no policy", "with policy"] : ["with policy", "no policy"];
      for (const name of order) times[name]?.push(await turn(name));
    }
    const open = times["no policy"] ?? [];
    const guarded = times["with policy"] ?? [];
    report.print(`\nA Jira turn (one hop, reach + one read decided), ${SAMPLES} turns each, interleaved\n`);
    report.print(row(["agent", "turn p50 ms", "turn p95 ms"]));
    report.print(row(["---", "---", "---"]));
    report.print(row(["no policy", quantile(open, 0.5).toFixed(2), quantile(open, 0.95).toFixed(2)]));
    report.print(row(["with policy", quantile(guarded, 0.5).toFixed(2), quantile(guarded, 0.95).toFixed(2)]));
    const added = quantile(guarded, 0.5) - quantile(open, 0.5);
    report.print(
      `\nAdded per hop at p50: ${added.toFixed(2)} ms (${((added / quantile(open, 0.5)) * 100).toFixed(1)}% of the turn; within the run's noise when near 0).`,
    );
  } finally {
    for (const agent of Object.values(agents)) await agent.close();
    await Promise.all([jira.close(), llm.close()]);
    await mongo?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
report.save();
