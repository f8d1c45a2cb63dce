import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { connectAgent, type TurnEvent } from "@switchboard/a2a-client";
import { type AgentProcess, freePort } from "@switchboard-testing/test-agents";
import {
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAgent } from "./fleet.js";

/** 42 words, as a model writes them: one token a word, TOKEN_MS apart. */
const STORY = Array.from({ length: 42 }, (_, i) => `word${i + 1}`).join(" ");
const TOKEN_MS = 25;

const script = rules([...routeByAgentPrefix(), { lastUser: /tell a story/, reply: say(STORY) }], say("?"));

interface Seen {
  event: TurnEvent;
  at: number;
}

/** Every event of one streamed turn, with when it arrived. */
async function streamTurn(url: string, text: string): Promise<Seen[]> {
  const connection = await connectAgent(url);
  const seen: Seen[] = [];
  for await (const event of connection.stream({ text, contextId: `conv-${randomUUID()}` }))
    seen.push({ event, at: performance.now() });
  return seen;
}

/** The answer's streamed pieces (appended chunks), and the final chunk that repeats it whole. */
function answerPieces(seen: Seen[]) {
  const pieces = seen.filter(({ event }) => event.kind === "artifact" && event.append);
  const last = seen.find(({ event }) => event.kind === "artifact" && event.lastChunk);
  const text = (s: Seen | undefined) => (s?.event.kind === "artifact" ? s.event.text : "");
  return { pieces, joined: pieces.map(text).join(""), final: text(last) };
}

describe("the answer streams through the supervisor's hop (paced scripted model)", () => {
  let llm: ScriptedLlm;
  const processes: AgentProcess[] = [];
  let supervisorUrl: string;

  beforeAll(async () => {
    let jiraPort: number;
    let supervisorPort: number;
    [llm, jiraPort, supervisorPort] = await Promise.all([
      startScriptedLlm({ script, latencyMs: 50, tokenIntervalMs: TOKEN_MS }),
      freePort(),
      freePort(),
    ]);
    const common = { ...testMongoEnv(uniqueDbName("streaming")), ...llm.env };
    processes.push(await startAgent("jira", jiraPort, common));
    processes.push(
      await startAgent("supervisor", supervisorPort, {
        ...common,
        ENABLE_JIRA: "true",
        JIRA_AGENT_URL: `http://127.0.0.1:${jiraPort}`,
      }),
    );
    supervisorUrl = `http://127.0.0.1:${supervisorPort}`;
  });
  afterAll(async () => {
    await Promise.all(processes.map((agent) => agent.kill("SIGTERM")));
    await llm.close();
  });

  it("passes a final hop's answer on as Jira writes it, after the progress of the hop", async () => {
    const seen = await streamTurn(supervisorUrl, "forward to jira: tell a story");
    const { pieces, joined, final } = answerPieces(seen);
    expect(final).toBe(STORY);
    // The words come in several pieces that add up to the answer, not in one piece at the end.
    expect(pieces.length).toBeGreaterThanOrEqual(4);
    expect(joined).toBe(STORY);
    // The first piece is on its way while Jira is still writing: the pieces span most of its writing.
    const first = pieces[0] as Seen;
    const lastPiece = pieces.at(-1) as Seen;
    expect(lastPiece.at - first.at).toBeGreaterThan(0.5 * 41 * TOKEN_MS);
    // Which agent is working shows before any of its words.
    const asking = seen.findIndex(
      ({ event }) => event.kind === "status" && /Asking the jira agent/.test(event.text ?? ""),
    );
    expect(asking).toBeGreaterThan(-1);
    expect(asking).toBeLessThan(seen.indexOf(first));
    expect(seen.at(-1)?.event).toMatchObject({ kind: "status", state: "completed", text: STORY });
  });

  it("streams the supervisor's own answer after a hop, and gives a blocking caller the whole answer", async () => {
    const seen = await streamTurn(supervisorUrl, "jira: tell a story");
    const { pieces, joined, final } = answerPieces(seen);
    expect(final).toBe(`The jira agent answered: ${STORY}`);
    expect(pieces.length).toBeGreaterThanOrEqual(4);
    expect(joined).toBe(final);

    const connection = await connectAgent(supervisorUrl);
    const blocking = await connection.send({
      text: "forward to jira: tell a story",
      contextId: `conv-${randomUUID()}`,
    });
    expect(blocking).toMatchObject({ state: "completed", text: STORY, artifacts: [STORY] });
  });
});
