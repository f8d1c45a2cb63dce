// pnpm bench:supervisor — the supervisor's cost per hop, with a zero-latency scripted LLM:
// p50/p95 of a turn through the supervisor to the Jira agent against the same turn sent to Jira
// directly, then supervisor turns per second with 1, 10 and 100 concurrent conversations.
// MongoDB: MONGODB_URI if set, else the test MongoDB (mongo-java-server).
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { connectAgent } from "@switchboard/a2a-client/client";
import { startFakeJira } from "@switchboard/fake-jira/server";
import { startAgentProcess } from "@switchboard/test-agents/process";
import { callTool, replyFromToolResult, say } from "@switchboard/test-llm/replies";
import { rules } from "@switchboard/test-llm/rules";
import { startScriptedLlm } from "@switchboard/test-llm/server";
import { routeByAgentPrefix } from "@switchboard/test-llm/supervisor-rules";
import { startTestMongo } from "@switchboard/test-mongo/server";

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100);
const CONCURRENCY = [1, 10, 100];
const agentsDir = join(import.meta.dirname, "..", "..");

const script = rules(
  [
    ...routeByAgentPrefix(),
    { lastUser: /issue ([A-Z]+-\d+)/, reply: (_r, { match }) => callTool("get_issue", { key: match?.[1] }) },
    { afterTool: true, reply: replyFromToolResult() },
  ],
  say("ok"),
);

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

async function timeTurns(send: () => Promise<unknown>, count: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await send();
    samples.push(performance.now() - start);
  }
  return samples.sort((a, b) => a - b);
}

async function throughput(send: () => Promise<unknown>, workers: number, turns: number): Promise<number> {
  let remaining = turns;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (remaining-- > 0) await send();
    }),
  );
  return turns / ((performance.now() - start) / 1000);
}

async function main() {
  const mongo = process.env.MONGODB_URI ? undefined : await startTestMongo();
  const llm = await startScriptedLlm({ script });
  const jira = await startFakeJira();
  const common = {
    MONGODB_URI: process.env.MONGODB_URI ?? mongo?.uri ?? "",
    LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: `bench_${Date.now()}`,
    LLM_PROVIDER: "openai",
    OPENAI_API_KEY: "sk-bench",
    OPENAI_BASE_URL: llm.url,
    OPENAI_MODEL_NAME: "gpt-4o-mini",
    LOG_LEVEL: "info",
  };
  const jiraAgent = await startAgentProcess(join(agentsDir, "jira"), {
    env: { ...common, ATLASSIAN_API_URL: jira.url, ATLASSIAN_EMAIL: jira.email, ATLASSIAN_TOKEN: jira.token },
  });
  const supervisor = await startAgentProcess(join(agentsDir, "supervisor"), {
    env: { ...common, ENABLE_JIRA: "true", JIRA_AGENT_URL: jiraAgent.url },
  });
  try {
    const direct = await connectAgent(jiraAgent.url);
    const routed = await connectAgent(supervisor.url);
    const viaSupervisor = () => routed.send({ text: "jira: issue PLAT-1", contextId: randomUUID() });
    const toJira = () => direct.send({ text: "issue PLAT-1", contextId: randomUUID() });
    // Warm up both paths (JIT, connections, the supervisor's first card fetch).
    await timeTurns(viaSupervisor, 10);
    await timeTurns(toJira, 10);

    const directSamples = await timeTurns(toJira, SAMPLES);
    const routedSamples = await timeTurns(viaSupervisor, SAMPLES);
    const rows = [
      ["direct to Jira agent", quantile(directSamples, 0.5), quantile(directSamples, 0.95)],
      ["supervisor → Jira (one hop)", quantile(routedSamples, 0.5), quantile(routedSamples, 0.95)],
    ] as const;
    console.log(
      `\nLatency, ${SAMPLES} sequential turns each (zero-latency scripted LLM, new conversation per turn)\n`,
    );
    console.log("| path                         | p50 ms | p95 ms |");
    console.log("| ---------------------------- | ------ | ------ |");
    for (const [path, p50, p95] of rows)
      console.log(`| ${path.padEnd(28)} | ${p50.toFixed(1).padStart(6)} | ${p95.toFixed(1).padStart(6)} |`);
    const ratio = quantile(routedSamples, 0.5) / quantile(directSamples, 0.5);
    console.log(`\nsupervisor overhead at p50: ×${ratio.toFixed(2)} of a direct call\n`);

    console.log("| concurrent conversations | turns | supervisor turns/s |");
    console.log("| ------------------------ | ----- | ------------------ |");
    for (const workers of CONCURRENCY) {
      const turns = Math.max(SAMPLES, workers * 2);
      const rate = await throughput(viaSupervisor, workers, turns);
      console.log(
        `| ${String(workers).padStart(24)} | ${String(turns).padStart(5)} | ${rate.toFixed(1).padStart(18)} |`,
      );
    }
  } finally {
    await Promise.all([supervisor.kill("SIGTERM"), jiraAgent.kill("SIGTERM")]);
    await Promise.all([llm.close(), jira.close()]);
    await mongo?.stop();
  }
}

await main();
