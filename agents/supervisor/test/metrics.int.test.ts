import { randomUUID } from "node:crypto";
import { connectAgent } from "@switchboard/a2a-client";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { type AgentProcess, freePort } from "@switchboard-testing/test-agents";
import { type ScriptedLlm, startScriptedLlm } from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jiraRouting as script, startAgent } from "./fleet.js";

describe("Prometheus metrics of a supervisor → Jira turn (tracing off)", () => {
  let llm: ScriptedLlm;
  let jira: FakeJira;
  const processes: AgentProcess[] = [];
  let supervisorPort: number;
  let jiraPort: number;
  const scrape = async (port: number) => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();

  beforeAll(async () => {
    let downPort: number;
    [llm, jira, jiraPort, supervisorPort, downPort] = await Promise.all([
      startScriptedLlm({ script }),
      startFakeJira(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const common = { ...testMongoEnv(uniqueDbName("metrics")), ...llm.env };
    processes.push(
      await startAgent("jira", jiraPort, {
        ...common,
        ATLASSIAN_API_URL: jira.url,
        ATLASSIAN_EMAIL: jira.email,
        ATLASSIAN_TOKEN: jira.token,
      }),
    );
    processes.push(
      await startAgent("supervisor", supervisorPort, {
        ...common,
        ENABLE_JIRA: "true",
        JIRA_AGENT_URL: `http://127.0.0.1:${jiraPort}`,
        // Nothing listens there: a subagent that is down.
        ENABLE_GITHUB: "true",
        GITHUB_AGENT_URL: `http://127.0.0.1:${downPort}`,
        ENABLE_WEATHER: "false",
      }),
    );
    const connection = await connectAgent(`http://127.0.0.1:${supervisorPort}`);
    const contextId = randomUUID();
    expect((await connection.send({ text: "jira: open issues in PLAT", contextId })).state).toBe("completed");
    await connection.send({ text: "github: open pull requests in acme/api", contextId });
  }, 90_000);

  afterAll(async () => {
    await Promise.all(processes.map((agent) => agent.kill("SIGTERM")));
    await Promise.all([llm?.close(), jira?.close()]);
  });

  it("counts each agent's model calls, their latency and tokens by model", async () => {
    const model = llm.env.OPENAI_MODEL_NAME;
    // Two calls a turn (the request, then the answer): the supervisor had two turns, Jira one.
    for (const [agent, port, calls] of [
      ["supervisor", supervisorPort, 4],
      ["jira", jiraPort, 2],
    ] as const) {
      const labels = `agent="${agent}",model="${model}"`;
      // LangChain runs callbacks in the background: the last call's may land just after the answer.
      await expect
        .poll(() => scrape(port))
        .toMatch(new RegExp(`switchboard_model_calls_total\\{${labels},outcome="ok"\\} ${calls}\n`));
      const metrics = await scrape(port);
      expect(metrics).toMatch(
        new RegExp(`switchboard_model_call_duration_seconds_count\\{${labels}\\} [1-9]`),
      );
      expect(metrics).toMatch(new RegExp(`switchboard_model_tokens_total\\{${labels},type="input"\\} [1-9]`));
      expect(metrics).toMatch(
        new RegExp(`switchboard_model_tokens_total\\{${labels},type="output"\\} [1-9]`),
      );
    }
    expect(await scrape(jiraPort)).toMatch(
      /switchboard_tool_calls_total\{agent="jira",tool="search_issues",outcome="ok"\} 1/,
    );
  });

  it("times the supervisor's hops by subagent and counts the ones to a subagent that is down", async () => {
    const metrics = await scrape(supervisorPort);
    expect(metrics).toMatch(
      /switchboard_subagent_hop_duration_seconds_count\{subagent="jira",outcome="completed"\} 1/,
    );
    expect(metrics).toMatch(/switchboard_subagent_hop_errors_total\{subagent="github"\} 1/);
  });

  it("times checkpoint reads and writes under the design record's names, labelled by agent", async () => {
    const metrics = await scrape(jiraPort);
    expect(metrics).toMatch(
      /switchboard_checkpoint_read_duration_seconds_count\{agent="jira",operation="getTuple",backend="mongodb"\} [1-9]/,
    );
    expect(metrics).toMatch(
      /switchboard_checkpoint_write_duration_seconds_count\{agent="jira",operation="put",backend="mongodb"\} [1-9]/,
    );
    expect(metrics).toContain("# TYPE switchboard_checkpoint_errors_total counter");
  });
});
