import { randomUUID } from "node:crypto";
import { type AgentConnection, collectTurn, connectAgent } from "@switchboard/a2a-client";
import {
  type ContextSummary,
  type RunningAgent,
  SUMMARY_PREFIX,
  serveAgent,
} from "@switchboard/agent-runtime";
import { createLogger } from "@switchboard/common";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { type AgentProcess, freePort } from "@switchboard-testing/test-agents";
import {
  type ChatCompletionRequest,
  callTool,
  contextProblems,
  contextTooLong,
  isSummaryRequest,
  messageText,
  offeredToolNames,
  replyFromToolResult,
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
  summarizeMatches,
} from "@switchboard-testing/test-llm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { supervisorAgent } from "../src/agent.js";
import { startAgent } from "./fleet.js";

const BUDGET = 1_500;
const TURNS = 60;
const FILLER = "with a little background so that every turn has some weight to it.";
/** Every third turn asks Jira (a call_agent hop), the others are plain chat with the supervisor. */
const isHop = (i: number) => i % 3 === 0;
const turnText = (i: number) =>
  isHop(i) ? `jira: open issues in PLAT for topic-${i} ${FILLER}` : `remember topic-${i} ${FILLER}`;

/** Past this many characters of a conversation with bulky notes, the scripted model's window is full. */
const WINDOW_CHARS = 7_000;
const BULKY = (n: number) => `remember bulky note ${n}: ${"lorem ipsum ".repeat(340)}`;
const hasBulky = (request: ChatCompletionRequest) => JSON.stringify(request.messages).includes("bulky note");

const script = rules(
  [
    { test: (r) => isSummaryRequest(r) && hasBulky(r), reply: say("The user shared bulky notes earlier.") },
    {
      test: (r) => hasBulky(r) && JSON.stringify(r.messages).length > WINDOW_CHARS,
      reply: () => Promise.reject(contextTooLong(250_000, 200_000)),
    },
    { test: isSummaryRequest, reply: summarizeMatches(/topic-\d+/) },
    ...routeByAgentPrefix(),
    { toolOffered: "call_agent", reply: (_r, { userText }) => say(`Noted ${userText.split(" ")[1]}.`) },
    {
      lastUser: /open issues in ([A-Z]+)/,
      reply: (_r, { match }) => callTool("search_issues", { jql: `project = ${match?.[1]}` }),
    },
    { afterTool: true, reply: replyFromToolResult() },
  ],
  say("No rule for this."),
);

const isSupervisorRequest = (request: ChatCompletionRequest) =>
  offeredToolNames(request).includes("call_agent");
const userTexts = (request: ChatCompletionRequest) =>
  request.messages
    .filter((message) => message.role === "user")
    .map((message) => messageText(message.content));

/** One streamed turn: its result, and the text of every artifact event (streamed chunks too). */
async function streamTurn(connection: AgentConnection, text: string, contextId: string) {
  const artifacts: string[] = [];
  const turn = await collectTurn(
    (async function* () {
      for await (const event of connection.stream({ text, contextId })) {
        if (event.kind === "artifact") artifacts.push(event.text);
        yield event;
      }
    })(),
  );
  return { ...turn, streamed: artifacts.join("") };
}

// The supervisor runs in this process, so the test reads its checkpoint through the supervisor's
// own saver (in memory here); Jira runs as its own process, as in the fleet.
describe("bounded model context in the supervisor", () => {
  let llm: ScriptedLlm;
  let jira: FakeJira;
  let jiraAgent: AgentProcess;
  let supervisor: RunningAgent;
  /** The supervisor in this process, routing to the Jira agent, with these context settings. */
  const serveSupervisor = (context: { MAX_CONTEXT_TOKENS: string; MIN_MESSAGES_TO_KEEP: string }) =>
    serveAgent(supervisorAgent, {
      env: {
        ...llm.env,
        AGENT_NAME: "supervisor",
        PORT: "0",
        HOST: "127.0.0.1",
        ENABLE_JIRA: "true",
        JIRA_AGENT_URL: jiraAgent.url,
        ...context,
      },
      logger: createLogger({ level: "silent" }),
    });

  beforeAll(async () => {
    let jiraPort: number;
    [llm, jira, jiraPort] = await Promise.all([startScriptedLlm({ script }), startFakeJira(), freePort()]);
    jiraAgent = await startAgent("jira", jiraPort, {
      ...llm.env,
      ATLASSIAN_API_URL: jira.url,
      ATLASSIAN_EMAIL: jira.email,
      ATLASSIAN_TOKEN: jira.token,
    });
    supervisor = await serveSupervisor({ MAX_CONTEXT_TOKENS: String(BUDGET), MIN_MESSAGES_TO_KEEP: "3" });
  });
  afterAll(async () => {
    await supervisor?.close();
    await jiraAgent?.kill("SIGTERM");
    await Promise.all([llm.close(), jira.close()]);
  });

  it("sends the model a summary and the newest turns while its checkpoint keeps all 60 turns", async () => {
    const connection = await connectAgent(supervisor.url);
    const contextId = `conv-${randomUUID()}`;
    const firstRequest = llm.requests.length;
    for (let i = 1; i <= TURNS; i++) {
      const turn = await streamTurn(connection, turnText(i), contextId);
      expect(turn.state).toBe("completed");
      // The summary call is not streamed to the user as if it were the answer.
      expect(turn.streamed).not.toContain("Mentioned so far");
      if (isHop(i)) expect(turn.text).toContain("PLAT-1");
      else expect(turn.text).toBe(`Noted topic-${i}.`);
    }

    const requests = llm.requests.slice(firstRequest);
    const modelRequests = requests.filter(isSupervisorRequest);
    expect(modelRequests.length).toBe(TURNS + TURNS / 3);
    expect(requests.filter(isSummaryRequest).length).toBeGreaterThanOrEqual(3);
    expect(contextProblems(modelRequests, BUDGET)).toEqual([]);

    const last = modelRequests.at(-1) as ChatCompletionRequest;
    const [summary, ...verbatim] = userTexts(last);
    expect(summary?.startsWith(SUMMARY_PREFIX)).toBe(true);
    expect(summary).toContain("topic-1,");
    expect(verbatim.at(-1)).toBe(turnText(TURNS));
    expect(verbatim.length).toBeLessThan(TURNS / 4);
    const known = `${summary} ${verbatim.join(" ")}`;
    for (let i = 1; i <= TURNS; i++) expect(known).toMatch(new RegExp(`topic-${i}\\b`));

    // The checkpoint keeps every message (2 per chat turn, 4 per hop) and the summary beside them.
    const tuple = await supervisor.checkpointer.getTuple({ configurable: { thread_id: contextId } });
    const channels = tuple?.checkpoint.channel_values ?? {};
    const stored = (channels.messages ?? []) as Array<{ content: unknown; id?: string }>;
    expect(stored).toHaveLength((TURNS / 3) * 4 + ((2 * TURNS) / 3) * 2);
    expect(stored[0]?.content).toBe(turnText(1));
    const kept = channels.contextSummary as ContextSummary;
    expect(kept.text).toBe(summary);
    expect(stored.map((message) => message.id)).toContain(kept.through);
  });

  it("summarizes and sends again when the provider says the conversation is too long; past that, says so", async () => {
    // MAX_CONTEXT_TOKENS above the model's window: only the provider's refusal summarizes.
    const roomy = await serveSupervisor({ MAX_CONTEXT_TOKENS: "64000", MIN_MESSAGES_TO_KEEP: "1" });
    try {
      const connection = await connectAgent(roomy.url);
      const contextId = `conv-${randomUUID()}`;
      expect((await streamTurn(connection, BULKY(1), contextId)).state).toBe("completed");
      const before = llm.requests.length;
      const second = await streamTurn(connection, BULKY(2), contextId);
      expect(second, second.text).toMatchObject({ state: "completed", text: "Noted bulky." });
      const kinds = llm.requests
        .slice(before)
        .map((request) =>
          isSummaryRequest(request)
            ? "summary"
            : JSON.stringify(request.messages).length > WINDOW_CHARS
              ? "refused"
              : "ok",
        );
      expect(kinds).toEqual(["refused", "summary", "ok"]);
      // The summary is kept beside the whole history, for the next turns.
      const tuple = await roomy.checkpointer.getTuple({ configurable: { thread_id: contextId } });
      expect((tuple?.checkpoint.channel_values.contextSummary as ContextSummary | undefined)?.text).toContain(
        "bulky notes",
      );

      const alone = await streamTurn(connection, `${BULKY(3)} ${BULKY(4)}`, `conv-${randomUUID()}`);
      expect(alone.state).toBe("failed");
      expect(alone.text).toMatch(
        /still too long for .+ even with its older messages summarized: start a new conversation, or set MAX_CONTEXT_TOKENS \(now 64000\)/,
      );
    } finally {
      await roomy.close();
    }
  });
});
