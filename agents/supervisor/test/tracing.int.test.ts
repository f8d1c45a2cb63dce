import { randomUUID } from "node:crypto";
import { connectAgent } from "@switchboard/a2a-client";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "@switchboard-testing/otlp-receiver";
import { type AgentProcess, freePort } from "@switchboard-testing/test-agents";
import { type ScriptedLlm, startScriptedLlm } from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jiraRouting as script, startAgent } from "./fleet.js";

/** Values that must never reach a trace backend. */
const LLM_KEY = "sk-tracing-test-secret-4f1c";
const JIRA_TOKEN = "jira-tracing-test-secret-9b2e";
const PROMPT = "jira: open issues in PLAT";
/** The Jira agent exports under CAIPE's settings: ENABLE_TRACING=true with a Langfuse key pair. */
const LANGFUSE_PUBLIC = "pk-lf-tracing-test";
const LANGFUSE_SECRET = "sk-lf-tracing-test-secret-71d0";

describe("tracing across a supervisor → Jira turn (Jira exporting to Langfuse under CAIPE's settings)", () => {
  let receiver: OtlpReceiver;
  let llm: ScriptedLlm;
  let jira: FakeJira;
  const processes: AgentProcess[] = [];
  let supervisorPort: number;
  const contextId = randomUUID();
  let trace: ReceivedSpan[] = [];

  beforeAll(async () => {
    let jiraPort: number;
    [receiver, llm, jira, jiraPort, supervisorPort] = await Promise.all([
      startOtlpReceiver(),
      startScriptedLlm({ script, apiKey: LLM_KEY }),
      startFakeJira({ token: JIRA_TOKEN }),
      freePort(),
      freePort(),
    ]);
    const common = { ...testMongoEnv(uniqueDbName("tracing")), ...llm.env };
    processes.push(
      await startAgent("jira", jiraPort, {
        ...common,
        ENABLE_TRACING: "true",
        LANGFUSE_HOST: receiver.url,
        LANGFUSE_PUBLIC_KEY: LANGFUSE_PUBLIC,
        LANGFUSE_SECRET_KEY: LANGFUSE_SECRET,
        OTEL_BSP_SCHEDULE_DELAY: "100",
        ATLASSIAN_API_URL: jira.url,
        ATLASSIAN_EMAIL: jira.email,
        ATLASSIAN_TOKEN: JIRA_TOKEN,
      }),
    );
    processes.push(
      await startAgent("supervisor", supervisorPort, {
        ...common,
        ...receiver.env,
        ENABLE_JIRA: "true",
        JIRA_AGENT_URL: `http://127.0.0.1:${jiraPort}`,
        ENABLE_WEATHER: "false",
      }),
    );
    const connection = await connectAgent(`http://127.0.0.1:${supervisorPort}`);
    const result = await connection.send({ text: PROMPT, contextId });
    expect(result.state).toBe("completed");
    // The supervisor's server span ends last, after the answer is written.
    await receiver.waitFor((spans) => {
      const turn = spans.find((span) => span.name === "invoke_agent supervisor");
      return spans.some((span) => span.traceId === turn?.traceId && span.kind === 2 && !span.parentSpanId);
    });
    // Each process exports on its own timer: the Jira agent's last batch may come after the root.
    await receiver.settle();
    const traceId = receiver.spans.find((span) => span.name === "invoke_agent supervisor")?.traceId;
    trace = receiver.spans.filter((span) => span.traceId === traceId);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(processes.map((agent) => agent.kill("SIGTERM")));
    await Promise.all([receiver?.close(), llm?.close(), jira?.close()]);
  });

  const named = (service: string, name: string) =>
    trace.filter((span) => span.service === `switchboard-${service}` && span.name === name);
  const one = (service: string, name: string) => {
    const found = named(service, name);
    expect(
      found,
      `${service}: ${name} in ${trace.map((s) => `${s.service}: ${s.name}`).join(", ")}`,
    ).toHaveLength(1);
    return found[0] as ReceivedSpan;
  };
  const parentOf = (span: ReceivedSpan) => trace.find((other) => other.spanId === span.parentSpanId);
  const ancestors = (span: ReceivedSpan): ReceivedSpan[] => {
    const parent = parentOf(span);
    return parent ? [parent, ...ancestors(parent)] : [];
  };

  it("is one trace with spans from both agents, rooted at the supervisor's A2A request", () => {
    expect(new Set(trace.map((span) => span.service))).toEqual(
      new Set(["switchboard-supervisor", "switchboard-jira"]),
    );
    const roots = trace.filter((span) => !span.parentSpanId);
    expect(roots).toHaveLength(1);
    expect(roots[0]).toMatchObject({ service: "switchboard-supervisor", kind: 2 });
    // Every span hangs off that root: no link is broken.
    for (const span of trace) {
      if (span !== roots[0]) expect(ancestors(span).at(-1)).toBe(roots[0]);
    }
  });

  it("links the Jira turn under the supervisor's hop, which is under the supervisor's turn", () => {
    const supervisorTurn = one("supervisor", "invoke_agent supervisor");
    const jiraTurn = one("jira", "invoke_agent jira");
    const jiraServer = parentOf(jiraTurn);
    expect(jiraServer).toMatchObject({ service: "switchboard-jira", kind: 2 });
    const request = jiraServer ? parentOf(jiraServer) : undefined;
    // The supervisor's outgoing request (fetch) carried the traceparent, inside its hop to Jira.
    expect(request).toMatchObject({ service: "switchboard-supervisor", kind: 3 });
    const hop = one("supervisor", "invoke_agent jira");
    expect(hop).toMatchObject({ kind: 3, attributes: { "switchboard.turn.outcome": "completed" } });
    expect(request && ancestors(request)).toContain(hop);
    expect(parentOf(hop)).toBe(supervisorTurn);
    expect(parentOf(supervisorTurn)).toMatchObject({ service: "switchboard-supervisor", kind: 2 });
  });

  it("reaches Langfuse's OTLP endpoint with the key pair as Basic credentials, under CAIPE's settings", () => {
    const basic = `Basic ${Buffer.from(`${LANGFUSE_PUBLIC}:${LANGFUSE_SECRET}`).toString("base64")}`;
    const langfuse = receiver.requests.filter((request) => request.path === "/api/public/otel/v1/traces");
    expect(langfuse.length).toBeGreaterThan(0);
    expect(langfuse.every((request) => request.authorization === basic)).toBe(true);
    // The supervisor, on the standard OTEL_* variables, sends nothing there.
    expect(receiver.requests.some((request) => request.path === "/v1/traces" && !request.authorization)).toBe(
      true,
    );
  });

  it("names the agent, conversation, task and outcome on each turn", () => {
    for (const agent of ["supervisor", "jira"]) {
      expect(one(agent, `invoke_agent ${agent}`).attributes).toMatchObject({
        "gen_ai.agent.name": agent,
        "gen_ai.conversation.id": contextId,
        "switchboard.task.id": expect.any(String),
        "switchboard.turn.outcome": "completed",
      });
    }
  });

  it("has each model call and tool call under its agent's turn, with model and token counts", () => {
    for (const agent of ["supervisor", "jira"]) {
      const turn = one(agent, `invoke_agent ${agent}`);
      const chats = trace.filter(
        (span) => span.service === `switchboard-${agent}` && span.name.startsWith("chat "),
      );
      expect(chats.length).toBeGreaterThanOrEqual(2);
      for (const chat of chats) {
        expect(parentOf(chat)).toBe(turn);
        expect(chat.attributes).toMatchObject({
          "gen_ai.operation.name": "chat",
          "gen_ai.request.model": llm.env.OPENAI_MODEL_NAME,
          "gen_ai.usage.input_tokens": expect.any(Number),
          "gen_ai.usage.output_tokens": expect.any(Number),
        });
      }
    }
    expect(parentOf(one("jira", "execute_tool search_issues"))?.name).toBe("invoke_agent jira");
  });

  it("shows Jira's checkpoint reads and writes and their MongoDB commands inside its turn", () => {
    const jiraTurn = one("jira", "invoke_agent jira");
    const writes = named("jira", "checkpoint put");
    expect(writes.length).toBeGreaterThan(0);
    for (const write of writes) expect(ancestors(write)).toContain(jiraTurn);
    const mongo = trace.filter(
      (span) => span.service === "switchboard-jira" && span.scope.includes("instrumentation-mongodb"),
    );
    expect(mongo.length).toBeGreaterThan(0);
    expect(mongo.some((span) => writes.includes(parentOf(span) as ReceivedSpan))).toBe(true);
  });

  it("exports no key, token, credentials or prompt text", () => {
    const exported = receiver.bodies.join("\n");
    const basic = Buffer.from(`${jira.email}:${JIRA_TOKEN}`).toString("base64");
    for (const secret of [LLM_KEY, JIRA_TOKEN, basic, LANGFUSE_SECRET, "open issues in PLAT"]) {
      expect(exported).not.toContain(secret);
    }
    expect(exported).not.toMatch(/authorization/i);
  });
});
