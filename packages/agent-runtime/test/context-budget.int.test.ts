import { randomUUID } from "node:crypto";
import { taskStateToJSON } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import type { BaseMessage } from "@langchain/core/messages";
import { createLogger } from "@switchboard/common";
import {
  type ChatCompletionRequest,
  callTool,
  contextProblems,
  guardOutboundConnections,
  isSummaryRequest,
  LlmHttpError,
  messageText,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
  summarizeMatches,
  textToSummarize,
} from "@switchboard-testing/test-llm";
import { testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SUMMARY_PREFIX } from "../src/graph/context-budget.js";
import type { RunningAgent } from "../src/serve.js";
import { serveAgent } from "../src/serve.js";
import { clientFor, send, statusText, userMessage } from "./a2a.js";
import { notesAgent, serveNotesAgent } from "./notes-agent.js";

const BUDGET = 1_000;
const FILLER = "with a little background so that every turn has some weight to it. ".repeat(2);
/** Turn i: every other one looks its topic up with a tool, the others are plain chat. */
const turnText = (i: number) => `${i % 2 === 0 ? "look up" : "remember"} topic-${i} ${FILLER}`;

interface StreamedTurn {
  state: string;
  answer: string;
  statuses: string[];
  /** The text of every artifact event, streamed chunks included. */
  artifacts: string[];
}

async function streamTurn(client: Client, text: string, contextId: string): Promise<StreamedTurn> {
  const turn: StreamedTurn = { state: "", answer: "", statuses: [], artifacts: [] };
  for await (const event of client.sendMessageStream({
    tenant: "",
    message: userMessage(text, contextId),
    configuration: undefined,
    metadata: undefined,
  })) {
    const payload = event.payload;
    if (payload?.$case === "artifactUpdate") {
      const part = payload.value.artifact?.parts[0]?.content;
      turn.artifacts.push(part?.$case === "text" ? part.value : "");
    }
    if (payload?.$case !== "statusUpdate") continue;
    turn.state = taskStateToJSON(payload.value.status?.state ?? 0);
    const part = payload.value.status?.message?.parts[0]?.content;
    const text = part?.$case === "text" ? part.value : "";
    turn.statuses.push(text);
    if (turn.state === "TASK_STATE_COMPLETED") turn.answer = text;
  }
  return turn;
}

/** The user messages of a request, as sent. */
const userTexts = (request: ChatCompletionRequest) =>
  request.messages
    .filter((message) => message.role === "user")
    .map((message) => messageText(message.content));

describe("bounded model context in an agent", () => {
  const dbName = uniqueDbName("context");
  let llm: ScriptedLlm;
  let mongo: MongoClient;
  let agent: RunningAgent | undefined;
  let failSummaries = false;

  beforeAll(async () => {
    llm = await startScriptedLlm({
      script: rules(
        [
          {
            test: isSummaryRequest,
            reply: (request) => {
              if (failSummaries) throw new LlmHttpError(400, "summaries are switched off in this test");
              return summarizeMatches(/topic-\d+/)(request);
            },
          },
          { lastUser: /look up topic-\d+/, reply: callTool("list_notes", {}) },
          { afterTool: true, reply: replyFromToolResult() },
        ],
        (_request, { userText }) => say(`Noted: ${userText.split(" ").slice(0, 2).join(" ")}.`),
      ),
    });
    mongo = await MongoClient.connect(testMongoUri());
  });
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
    failSummaries = false;
  });
  afterAll(async () => {
    await mongo.db(dbName).dropDatabase();
    await mongo.close();
    await llm.close();
  });

  /** The conversation as the running agent stored it (read through its own saver). */
  const storedMessages = async (thread: string): Promise<BaseMessage[]> => {
    if (!agent) throw new Error("no agent is running");
    const tuple = await agent.checkpointer.getTuple({ configurable: { thread_id: thread } });
    return (tuple?.checkpoint.channel_values.messages as BaseMessage[] | undefined) ?? [];
  };

  it("keeps 60 turns within the budget: a rolling summary of the older turns, the newest verbatim, tool calls with their results", async () => {
    const notes = ["water the plants", `renew the certificate for ${"the internal gateway ".repeat(8)}`];
    agent = await serveNotesAgent({
      llm,
      notes,
      env: { MAX_CONTEXT_TOKENS: String(BUDGET), MIN_MESSAGES_TO_KEEP: "3" },
    });
    const client = await clientFor(agent.url);
    const contextId = `ctx-${randomUUID()}`;
    const firstRequest = llm.requests.length;
    const guard = guardOutboundConnections();
    try {
      for (let i = 1; i <= 60; i++) {
        const turn = await streamTurn(client, turnText(i), contextId);
        expect(turn.state).toBe("TASK_STATE_COMPLETED");
        // The summary call is not streamed to the user as if it were the answer.
        expect(turn.artifacts.join("")).not.toContain("Mentioned so far");
        if (i % 2 === 0) {
          expect(turn.answer).toContain("renew the certificate");
          // One call reported per turn: the summary's rewrite of the history repeats no old calls.
          expect(turn.statuses.filter((status) => status === "Calling list_notes")).toHaveLength(1);
        } else {
          expect(turn.answer).toBe(`Noted: remember topic-${i}.`);
          expect(turn.statuses.filter((status) => status.startsWith("Calling"))).toEqual([]);
        }
      }
    } finally {
      guard.restore();
    }
    // Token estimates only: no tokenizer download, nothing beyond loopback.
    expect(guard.disallowedHosts()).toEqual([]);

    const requests = llm.requests.slice(firstRequest);
    const summaries = requests.filter(isSummaryRequest);
    const modelRequests = requests.filter((request) => !isSummaryRequest(request));
    expect(summaries.length).toBeGreaterThanOrEqual(5);
    expect(contextProblems(modelRequests, BUDGET)).toEqual([]);
    const last = modelRequests.at(-1) as ChatCompletionRequest;
    const [summary, ...verbatim] = userTexts(last);
    expect(summary?.startsWith(SUMMARY_PREFIX)).toBe(true);
    expect(verbatim.at(-1)).toBe(turnText(60));
    expect(verbatim.length).toBeLessThan(10);
    // Every topic is still known to the model: in the summary (carried over from summary to
    // summary since topic-1) or in a message sent as it was.
    const known = `${summary} ${verbatim.join(" ")}`;
    for (let i = 1; i <= 60; i++) expect(known).toMatch(new RegExp(`topic-${i}\\b`));
    expect(summary).toContain("topic-1,");

    // summarizationMiddleware rewrites the agent's state: its checkpoint holds the last summary and
    // the messages since, not the whole history (the supervisor's keeps every message).
    const stored = await storedMessages(contextId);
    expect(String(stored[0]?.content)).toMatch(new RegExp(`^${SUMMARY_PREFIX}`));
    expect(stored.length).toBeLessThan(30);
  });

  it("keeps the whole history when a summary fails, and summarizes once the model can", async () => {
    agent = await serveNotesAgent({
      llm,
      dbName,
      env: { MAX_CONTEXT_TOKENS: "200", MIN_MESSAGES_TO_KEEP: "2" },
    });
    const client = await clientFor(agent.url);
    const contextId = `ctx-${randomUUID()}`;
    failSummaries = true;
    for (let i = 1; i <= 6; i++) await send(client, turnText(2 * i - 1), contextId);
    const failed = llm.requests.filter((request) => textToSummarize(request).includes("topic-1 "));
    expect(failed.length).toBeGreaterThan(0);
    const whole = llm.requests.at(-1) as ChatCompletionRequest;
    expect(userTexts(whole)).toEqual([1, 3, 5, 7, 9, 11].map(turnText));
    expect(JSON.stringify(whole)).not.toContain("Error generating summary");
    expect(await storedMessages(contextId)).toHaveLength(12);

    failSummaries = false;
    const answered = await send(client, turnText(13), contextId);
    expect(statusText(answered)).toBe("Noted: remember topic-13.");
    const [summary, ...verbatim] = userTexts(llm.requests.at(-1) as ChatCompletionRequest);
    // The summarizer reads at most MAX_CONTEXT_TOKENS of what it summarizes, newest first: the
    // history that grew past the budget meanwhile loses its oldest turn here.
    expect(summary).toMatch(/^Summary of the earlier conversation:\s+Mentioned so far: topic-3, .*topic-11$/);
    expect(verbatim).toEqual([turnText(13)]);
    // summarizationMiddleware rewrites the agent's state: its checkpoint now holds the summary and
    // the messages kept, not the whole history (the supervisor's keeps every message).
    const stored = await storedMessages(contextId);
    expect(stored.map((message) => message.getType())).toEqual(["human", "ai", "human", "ai"]);
    expect(String(stored[0]?.content)).toBe(summary);
  });

  it("sends the whole conversation when ENABLE_AUTO_COMPRESSION=false", async () => {
    agent = await serveNotesAgent({
      llm,
      env: { ENABLE_AUTO_COMPRESSION: "false", MAX_CONTEXT_TOKENS: "100" },
    });
    const client = await clientFor(agent.url);
    const contextId = `ctx-${randomUUID()}`;
    const before = llm.requests.length;
    for (let i = 1; i <= 8; i++) await send(client, turnText(2 * i - 1), contextId);
    const requests = llm.requests.slice(before);
    expect(requests.filter(isSummaryRequest)).toEqual([]);
    expect(userTexts(requests.at(-1) as ChatCompletionRequest)).toHaveLength(8);
  });

  it("offline mode sends nothing to summarize and keeps the whole history", async () => {
    agent = await serveAgent(notesAgent(["water the plants"]), {
      env: { PORT: "0", HOST: "127.0.0.1", AGENT_NAME: "notes", MAX_CONTEXT_TOKENS: "100" },
      logger: createLogger({ level: "silent" }),
    });
    const client = await clientFor(agent.url);
    const contextId = `ctx-${randomUUID()}`;
    const before = llm.requests.length;
    for (let i = 1; i <= 20; i++) {
      const answer = await send(client, "/list_notes", contextId);
      expect(statusText(answer)).toContain("list_notes returned");
      expect(statusText(answer)).toContain("water the plants");
    }
    expect(llm.requests.length).toBe(before);
    const stored = await storedMessages(contextId);
    expect(stored).toHaveLength(20 * 4);
  });
});
