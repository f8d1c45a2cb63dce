import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { type OtlpReceiver, startOtlpReceiver } from "@switchboard-testing/otlp-receiver";
import { type AgentProcess, freePort, startAgentProcess } from "@switchboard-testing/test-agents";
import {
  callTool,
  recallUserMessages,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CaipeEnv,
  type CaipeProcess,
  ensureCaipeEnv,
  locateCaipe,
  startCaipeProcess,
} from "../src/index.js";

const root = join(import.meta.dirname, "..", "..", "..");

/** The Jira agent's scripted answer starts so: counting it counts the answers CAIPE shows. */
const ANSWER_MARK = "search_issues returned:";

interface CaipeTask {
  status: { state: string };
  metadata?: Record<string, unknown>;
  artifacts?: { name?: string; parts: { text?: string }[] }[];
}
const caipe = locateCaipe();

function resultText(results: { content: string }[]): string {
  return results.map((result) => result.content).join("\n");
}

describe.skipIf(!caipe.available)(
  `CAIPE's Python supervisor routing to Switchboard's Jira agent${caipe.available ? "" : ` (skipped: ${caipe.reason})`}`,
  () => {
    let env: CaipeEnv;
    let llm: ScriptedLlm;
    let jira: FakeJira;
    let otlp: OtlpReceiver;
    let jiraAgent: AgentProcess;
    let supervisor: CaipeProcess;

    beforeAll(async () => {
      env = await ensureCaipeEnv(caipe);
      llm = await startScriptedLlm({
        script: rules(
          [
            // CAIPE's jira subagent (a deepagents subagent) calls its A2A tool with what it was asked,
            // then hands the Jira agent's answer back as it came. Asked with "(trace <32 hex>)", it
            // fills the tool's optional trace_id argument with that id.
            {
              toolOffered: "jira_a2a",
              lastUser: /^(.*?)\s*\(trace ([0-9a-f]{32})\)$/s,
              reply: (_r, { match }) => callTool("jira_a2a", { prompt: match?.[1], trace_id: match?.[2] }),
            },
            {
              toolOffered: "jira_a2a",
              lastUser: /.+/s,
              reply: (_r, { userText }) => callTool("jira_a2a", { prompt: userText }),
            },
            {
              toolOffered: "jira_a2a",
              afterTool: "jira_a2a",
              reply: (_r, { toolResults }) => say(resultText(toolResults)),
            },
            // CAIPE's supervisor delegates "jira: …" to its jira subagent, then answers with its result.
            {
              toolOffered: "task",
              lastUser: /^jira: (.+)$/s,
              reply: (_r, { match }) => callTool("task", { description: match?.[1], subagent_type: "jira" }),
            },
            {
              toolOffered: "task",
              afterTool: "task",
              reply: (_r, { toolResults }) => say(resultText(toolResults)),
            },
            // Switchboard's Jira agent.
            { toolOffered: "search_issues", lastUser: /what did I ask/, reply: recallUserMessages() },
            {
              toolOffered: "search_issues",
              lastUser: /open issues in ([A-Z]+)/,
              reply: (_r, { match }) => callTool("search_issues", { jql: `project = ${match?.[1]}` }),
            },
            { afterTool: "search_issues", reply: replyFromToolResult() },
          ],
          say("ok"),
        ),
      });
      jira = await startFakeJira();
      otlp = await startOtlpReceiver();
      jiraAgent = await startAgentProcess(join(root, "agents", "jira"), {
        env: {
          ...testMongoEnv(uniqueDbName("caipe-jira")),
          ...llm.env,
          ...otlp.env,
          ATLASSIAN_API_URL: jira.url,
          ATLASSIAN_EMAIL: jira.email,
          ATLASSIAN_TOKEN: jira.token,
        },
      });
      const port = await freePort();
      const jiraUrl = new URL(jiraAgent.url);
      supervisor = await startCaipeProcess({
        python: env.python.supervisor,
        module: "ai_platform_engineering.multi_agents",
        args: ["--host", "127.0.0.1", "--port", String(port), "platform-engineer"],
        cwd: env.sourceDir,
        port,
        label: "CAIPE supervisor",
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          TIKTOKEN_CACHE_DIR: env.tiktokenCacheDir,
          A2A_HOST: "127.0.0.1",
          A2A_PORT: String(port),
          LLM_PROVIDER: "openai",
          OPENAI_API_KEY: llm.env.OPENAI_API_KEY,
          OPENAI_ENDPOINT: llm.url,
          OPENAI_MODEL_NAME: llm.env.OPENAI_MODEL_NAME,
          ENABLE_JIRA: "true",
          DISTRIBUTED_AGENTS: "jira",
          JIRA_AGENT_HOST: jiraUrl.hostname,
          JIRA_AGENT_PORT: jiraUrl.port,
          // CAIPE's agents read metadata.trace_id only with tracing on (Langfuse, unreachable here).
          ENABLE_TRACING: "true",
          LANGFUSE_PUBLIC_KEY: "pk-lf-test",
          LANGFUSE_SECRET_KEY: "sk-lf-test",
          LANGFUSE_HOST: "http://127.0.0.1:9",
        },
      });
    });

    afterAll(async () => {
      await supervisor?.stop();
      await jiraAgent?.kill("SIGTERM");
      await Promise.all([llm?.close(), jira?.close(), otlp?.close()]);
    });

    /** One turn through CAIPE's supervisor over A2A 0.3 message/send, as CAIPE's UI sends it. */
    async function ask(contextId: string, text: string) {
      const response = await fetch(supervisor.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: randomUUID(),
          method: "message/send",
          params: {
            message: { role: "user", messageId: randomUUID(), contextId, parts: [{ kind: "text", text }] },
          },
        }),
      });
      const { result } = (await response.json()) as { result: CaipeTask };
      const final = result.artifacts?.find((artifact) => artifact.name === "final_result");
      return {
        state: result.status.state,
        traceId: String(result.metadata?.trace_id ?? ""),
        text: (final?.parts ?? []).map((part) => part.text ?? "").join(""),
      };
    }

    it("routes two turns of one conversation to the Jira agent, which remembers the first", async () => {
      const contextId = randomUUID();
      const first = await ask(contextId, "jira: show the open issues in PLAT");
      expect(first.state, supervisor.logs().slice(-4000)).toBe("completed");
      expect(first.text).toContain("PLAT-1");
      // CAIPE's client concatenates every artifact and the completed status: the answer is there once.
      expect(first.text.split(ANSWER_MARK).length - 1).toBe(1);

      const second = await ask(contextId, "jira: what did I ask you before?");
      expect(second.state).toBe("completed");
      // The Jira agent's model saw the first turn: the same conversation, not a new one.
      expect(second.text).toContain("You asked: show the open issues in PLAT | what did I ask you before?");
      // CAIPE named a trace to its caller but sent the Jira agent none of its own (see the todo below).
      expect(second.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(supervisor.logs()).not.toContain("Adding trace_id to A2A message");
    });

    // CAIPE's supervisor (e9d5c4191) never names its trace to a remote agent. Its A2A tool
    // (utils/a2a_common/a2a_remote_agent_connect.py, _execute_once) sends metadata.trace_id from its
    // trace_id argument, else from TracingManager's context variable; the supervisor sets that variable
    // nowhere (its stream() skips @trace_agent_stream and start_span, the only callers of
    // set_trace_id) and keeps its trace id in config["metadata"]["trace_id"], which the tool does not
    // read (only user_email and context_id). Its model is never shown the id, so with ENABLE_TRACING
    // on, Langfuse or not, the Jira agent gets no trace id: CAIPE's side of one trace is missing.
    it.todo(
      "puts each turn in one trace (CAIPE's supervisor sends no metadata.trace_id to remote agents at e9d5c4191)",
    );

    it("joins the trace CAIPE's A2A tool names when it has one (its trace_id argument)", async () => {
      const traceId = randomUUID().replaceAll("-", "");
      const result = await ask(randomUUID(), `jira: show the open issues in PLAT (trace ${traceId})`);
      expect(result.state, supervisor.logs().slice(-4000)).toBe("completed");
      expect(supervisor.logs()).toContain(`Adding trace_id to A2A message: ${traceId}`);
      // The Jira agent's turn spans, exported to the OTLP receiver, are in that trace.
      await otlp.waitFor(
        (spans) => spans.some((span) => span.traceId === traceId && span.service.includes("jira")),
        20_000,
      );
    });
  },
);
