import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type AbstractAgent, type BaseEvent, EventType, HttpAgent, type Interrupt } from "@ag-ui/client";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { type AgentProcess, freePort } from "@switchboard-testing/test-agents";
import { hopKeys } from "@switchboard-testing/test-idp";
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
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAgent } from "./fleet.js";

/** 24 words, one token each, written TOKEN_MS apart: an answer long enough to stream in pieces. */
const STORY = Array.from({ length: 24 }, (_, i) => `word${i + 1}`).join(" ");
const TOKEN_MS = 20;

const script = rules(
  [
    ...routeByAgentPrefix(),
    { lastUser: /tell a story/, reply: say(STORY) },
    {
      lastUser: /open issues in ([A-Z]+)/,
      reply: (_r, { match }) => callTool("search_issues", { jql: `project = ${match?.[1]}` }),
    },
    {
      lastUser: /create a bug in ([A-Z]+): (.+)/,
      reply: (_r, { match }) =>
        callTool("create_issue", { project: match?.[1], summary: match?.[2], issue_type: "Bug" }),
    },
    { lastUser: /what did I ask/, reply: recallUserMessages("Earlier you asked: ") },
    { afterTool: true, reply: replyFromToolResult() },
  ],
  say("I only know Jira."),
);

// Everyone signed in works; "outsiders" may not use the supervisor at all.
const POLICY = `
permit(principal, action in [Switchboard::Action::"reach", Switchboard::Action::"read", Switchboard::Action::"change"], resource)
when { principal.authenticated };

@id("outsiders-no-supervisor")
forbid(principal in Switchboard::Group::"outsiders", action == Switchboard::Action::"reach", resource == Switchboard::Agent::"supervisor");
`;

const SECRET = "a-shared-test-secret-of-32-characters!";
const ISSUER = "switchboard-test";

function tokenFor(subject: string, secret = SECRET, groups: string[] = []): Promise<string> {
  return new SignJWT({ groups })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setSubject(subject)
    .setAudience("switchboard")
    .setExpirationTime("5m")
    .sign(new TextEncoder().encode(secret));
}

/** One AG-UI run with the official client: the events it read, and how the run ended. */
async function run(
  agent: HttpAgent,
  parameters: Parameters<HttpAgent["runAgent"]>[0] = {},
): Promise<{ events: BaseEvent[]; finished: BaseEvent | undefined }> {
  const events: BaseEvent[] = [];
  await agent.runAgent(parameters, {
    onEvent: ({ event }) => {
      events.push(event);
    },
  });
  return { events, finished: events.findLast((event) => event.type === EventType.RUN_FINISHED) };
}

/** A run posted by hand (as an attacker would): the HTTP status, and the AG-UI events it streamed. */
async function post(
  url: string,
  body: unknown,
  authorization?: string,
): Promise<{ status: number; text: string; events: Array<Record<string, unknown>> }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "text/event-stream",
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const events = text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
  return { status: response.status, text, events };
}

const ofType = (events: BaseEvent[], type: EventType) => events.filter((event) => event.type === type);
const textOf = (events: BaseEvent[]) =>
  ofType(events, EventType.TEXT_MESSAGE_CONTENT)
    .map((event) => (event as BaseEvent & { delta: string }).delta)
    .join("");
const outcomeOf = (finished: BaseEvent | undefined) =>
  (finished as (BaseEvent & { outcome?: { type: string; interrupts?: Interrupt[] } }) | undefined)?.outcome;

/**
 * CopilotKit's own runtime (its v2 Node listener, as its docs wire an AG-UI agent) in front of the
 * supervisor's /ag-ui, on loopback. Loaded only here, with its telemetry off: it reads
 * COPILOTKIT_TELEMETRY_DISABLED when its module loads, and a test sends nothing off this machine.
 */
async function startCopilotRuntime(agUiUrl: string): Promise<{ url: string; server: Server }> {
  process.env.COPILOTKIT_TELEMETRY_DISABLED = "true";
  const { CopilotRuntime, InMemoryAgentRunner } = await import("@copilotkit/runtime/v2");
  const { createCopilotNodeListener } = await import("@copilotkit/runtime/v2/node");
  const runtime = new CopilotRuntime({
    // The runtime forwards the front end's Authorization header to the agent: the user's own token.
    agents: { supervisor: new HttpAgent({ url: agUiUrl }) as never },
    runner: new InMemoryAgentRunner(),
  });
  const listener = createCopilotNodeListener({
    runtime,
    basePath: "/api/copilotkit",
    // Its runner keeps threads by threadId alone, for anyone who names one: serve runs only
    // (Switchboard keeps each user's conversation, and decides every run as that user).
    hooks: {
      onBeforeHandler: ({ route }) => {
        if (route.method !== "info" && route.method !== "agent/run") {
          throw new Response(JSON.stringify({ error: "Not served" }), { status: 404 });
        }
      },
    },
  });
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/copilotkit`, server };
}

/**
 * A CopilotKit front end's agent for the runtime's `supervisor`, signed in with `authorization`:
 * the ProxiedCopilotRuntimeAgent its core makes for each agent the runtime lists (the core itself
 * reaches the runtime only inside a browser window), over the runtime's REST routes.
 */
async function frontEnd(
  runtimeUrl: string,
  authorization: string,
  threadId = `copilotkit-${randomUUID()}`,
): Promise<AbstractAgent> {
  const { ProxiedCopilotRuntimeAgent } = await import("@copilotkit/core");
  const agent = new ProxiedCopilotRuntimeAgent({
    runtimeUrl,
    agentId: "supervisor",
    transport: "rest",
    runtimeMode: "sse",
    headers: { authorization },
  });
  agent.threadId = threadId;
  return agent as unknown as AbstractAgent;
}

/** One run from the front end (a user message first, unless it resumes): the events it saw, and how it ended. */
async function runFromFrontEnd(
  agent: AbstractAgent,
  step: { say: string } | { resume: NonNullable<Parameters<AbstractAgent["runAgent"]>[0]>["resume"] },
): Promise<{ events: BaseEvent[]; finished: BaseEvent | undefined }> {
  const events: BaseEvent[] = [];
  if ("say" in step) agent.addMessage({ id: randomUUID(), role: "user", content: step.say });
  await agent.runAgent("resume" in step ? { resume: step.resume } : {}, {
    onEvent: ({ event }) => {
      events.push(event);
    },
  });
  return { events, finished: events.findLast((event) => event.type === EventType.RUN_FINISHED) };
}

describe("AG-UI on the supervisor (the official client, a real subagent)", () => {
  let llm: ScriptedLlm;
  let jira: FakeJira;
  const processes: AgentProcess[] = [];
  let endpoint: string;
  let alice: string;
  let copilot: { url: string; server: Server };

  /** A client for a thread, as `subject` (or with the given Authorization). */
  const client = (threadId: string, authorization: string) =>
    new HttpAgent({ url: endpoint, threadId, headers: { authorization } });
  const say_ = (agent: HttpAgent, text: string) => {
    agent.addMessage({ id: randomUUID(), role: "user", content: text });
    return run(agent);
  };
  const issuesNamed = (summary: string) => jira.issues.filter((issue) => issue.summary === summary);

  beforeAll(async () => {
    const policyFile = join(scratchDir("ag-ui"), "policies.cedar");
    writeFileSync(policyFile, POLICY);
    let jiraPort: number;
    let supervisorPort: number;
    [llm, jira, jiraPort, supervisorPort] = await Promise.all([
      startScriptedLlm({ script, tokenIntervalMs: TOKEN_MS }),
      startFakeJira(),
      freePort(),
      freePort(),
    ]);
    const common = {
      ...testMongoEnv(uniqueDbName("ag-ui")),
      ...llm.env,
      AUTH_MODE: "jwt",
      AUTH_JWT_SECRET: SECRET,
      AUTH_ISSUER: ISSUER,
      AUTH_AUDIENCE: "switchboard",
      ...hopKeys(),
      AUTHZ_POLICY_FILE: policyFile,
    };
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
        ENABLE_WEATHER: "false",
      }),
    );
    endpoint = `http://127.0.0.1:${supervisorPort}/ag-ui`;
    alice = `Bearer ${await tokenFor("alice@example.com")}`;
    copilot = await startCopilotRuntime(endpoint);
  });
  afterAll(async () => {
    copilot?.server.closeAllConnections();
    await new Promise((resolve) => copilot?.server.close(resolve));
    await Promise.all(processes.map((agent) => agent.kill("SIGTERM")));
    await Promise.all([llm.close(), jira.close()]);
  });

  it("streams a routed answer as text events, with the agent's step and its tool call", async () => {
    const agent = client(`ag-ui-${randomUUID()}`, alice);
    const { events, finished } = await say_(agent, "jira: open issues in OPS");
    expect(events[0]?.type).toBe(EventType.RUN_STARTED);
    expect(outcomeOf(finished)).toEqual({ type: "success" });
    // Which agent worked, and which of its tools, before the answer's words.
    const step = events.findIndex(
      (event) =>
        event.type === EventType.STEP_STARTED && (event as { stepName?: string }).stepName === "jira",
    );
    const call = events.find(
      (event) =>
        event.type === EventType.TOOL_CALL_START &&
        (event as { toolCallName?: string }).toolCallName === "search_issues",
    ) as (BaseEvent & { toolCallId: string; metadata?: { agent?: string } }) | undefined;
    expect(step).toBeGreaterThan(-1);
    expect(call?.metadata?.agent).toBe("jira");
    expect(
      ofType(events, EventType.TOOL_CALL_RESULT).some(
        (event) => (event as { toolCallId?: string }).toolCallId === call?.toolCallId,
      ),
    ).toBe(true);
    expect(step).toBeLessThan(events.findIndex((event) => event.type === EventType.TEXT_MESSAGE_START));
    expect(textOf(events)).toContain("OPS-1");
    // The client keeps the conversation: the assistant's message is the answer.
    expect(agent.messages.at(-1)).toMatchObject({
      role: "assistant",
      content: expect.stringContaining("OPS-1"),
    });
    // The run's state names its task and how it ended.
    expect(agent.state).toMatchObject({ agent: "supervisor", status: "success", taskId: expect.any(String) });
  });

  it("passes a subagent's answer on as it is written: several text pieces that add up to it", async () => {
    const agent = client(`ag-ui-${randomUUID()}`, alice);
    const { events, finished } = await say_(agent, "forward to jira: tell a story");
    expect(outcomeOf(finished)?.type).toBe("success");
    expect(ofType(events, EventType.TEXT_MESSAGE_CONTENT).length).toBeGreaterThanOrEqual(3);
    expect(textOf(events)).toBe(STORY);
    expect(ofType(events, EventType.TEXT_MESSAGE_START)).toHaveLength(1);
  });

  it("asks a confirmation as an interrupt, and the client's approval makes the change once", async () => {
    const agent = client(`ag-ui-${randomUUID()}`, alice);
    const { events, finished } = await say_(agent, "jira: create a bug in OPS: approved over ag-ui");
    const outcome = outcomeOf(finished);
    expect(outcome?.type).toBe("interrupt");
    const [interrupt] = outcome?.interrupts ?? [];
    expect(interrupt).toMatchObject({
      reason: "confirmation",
      message: expect.stringContaining("Shall I go ahead?"),
      responseSchema: expect.any(Object),
    });
    // The question names the tool call it waits on, and the arguments' hash an approval holds for.
    const waiting = ofType(events, EventType.TOOL_CALL_START).find(
      (event) => (event as { toolCallId?: string }).toolCallId === interrupt?.toolCallId,
    );
    expect(waiting).toMatchObject({ toolCallName: "create_issue" });
    const argsHashes = (interrupt?.metadata as { argsHashes?: string[] } | undefined)?.argsHashes;
    expect(argsHashes).toHaveLength(1);
    expect(agent.pendingInterrupts.map(({ id }) => id)).toEqual([interrupt?.id]);
    expect(issuesNamed("approved over ag-ui")).toHaveLength(0);

    const resume = [
      {
        interruptId: interrupt?.id as string,
        status: "resolved" as const,
        payload: { decision: "approve", argsHashes },
      },
    ];
    const approved = await run(agent, { resume });
    expect(outcomeOf(approved.finished)).toEqual({ type: "success" });
    expect(textOf(approved.events)).toMatch(/OPS-\d+/);
    expect(issuesNamed("approved over ag-ui")).toHaveLength(1);

    // The same approval sent again (a replay, a double click) changes nothing more.
    const again = await run(client(agent.threadId, alice), { resume });
    expect(outcomeOf(again.finished)?.type).not.toBe("interrupt");
    expect(issuesNamed("approved over ag-ui")).toHaveLength(1);
  });

  it("declines the change when the client cancels the interrupt: nothing is created", async () => {
    const agent = client(`ag-ui-${randomUUID()}`, alice);
    const { finished } = await say_(agent, "jira: create a bug in OPS: declined over ag-ui");
    const [interrupt] = outcomeOf(finished)?.interrupts ?? [];
    expect(interrupt?.reason).toBe("confirmation");
    const declined = await run(agent, {
      resume: [{ interruptId: interrupt?.id as string, status: "cancelled" }],
    });
    expect(outcomeOf(declined.finished)).toEqual({ type: "success" });
    expect(agent.pendingInterrupts).toEqual([]);
    expect(issuesNamed("declined over ag-ui")).toHaveLength(0);
  });

  it("refuses a run without a token, or with a forged one, before anything runs", async () => {
    const threadId = `ag-ui-${randomUUID()}`;
    const body = JSON.stringify({
      threadId,
      runId: randomUUID(),
      messages: [{ id: "m1", role: "user", content: "jira: create a bug in OPS: unauthenticated" }],
    });
    const post = (headers: Record<string, string>) =>
      fetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream", ...headers },
        body,
      });
    const none = await post({});
    expect(none.status).toBe(401);
    expect(await none.text()).toMatch(/a bearer token is required/);
    const forged = await post({
      authorization: `Bearer ${await tokenFor("alice@example.com", "another-secret-of-at-least-32-characters")}`,
    });
    expect(forged.status).toBe(401);
    // The official client reports the refusal as the run's failure.
    await expect(
      say_(client(threadId, `Bearer ${await tokenFor("alice@example.com", "x".repeat(40))}`), "hello"),
    ).rejects.toThrow(/401/);
    expect(issuesNamed("unauthenticated")).toHaveLength(0);
  });

  it("keeps a thread to its user: another user on the same threadId neither reads it nor answers its confirmation", async () => {
    const threadId = `ag-ui-${randomUUID()}`;
    const mallory = `Bearer ${await tokenFor("mallory@example.com")}`;
    const asking = client(threadId, alice);
    const { finished } = await say_(asking, "jira: create a bug in OPS: alice's secret change");
    const [interrupt] = outcomeOf(finished)?.interrupts ?? [];
    expect(interrupt?.reason).toBe("confirmation");

    // Mallory approving Alice's interrupt on Alice's threadId: Alice's task is not hers to answer.
    const forgedResume = await post(
      endpoint,
      {
        threadId,
        runId: randomUUID(),
        messages: [],
        resume: [{ interruptId: interrupt?.id, status: "resolved", payload: { decision: "approve" } }],
      },
      mallory,
    );
    expect(forgedResume.events.map(({ type }) => type)).toEqual(["RUN_STARTED", "RUN_ERROR"]);
    expect(forgedResume.events[1]?.message).toMatch(/not found/i);
    expect(issuesNamed("alice's secret change")).toHaveLength(0);

    // The same threadId is Mallory's own conversation: nothing of Alice's is in it.
    const reading = await say_(client(threadId, mallory), "jira: what did I ask before?");
    expect(textOf(reading.events)).not.toContain("secret change");

    // Alice's question still waits for her, and her approval still counts.
    const approved = await run(asking, {
      resume: [
        { interruptId: interrupt?.id as string, status: "resolved", payload: { decision: "approve" } },
      ],
    });
    expect(outcomeOf(approved.finished)).toEqual({ type: "success" });
    expect(issuesNamed("alice's secret change")).toHaveLength(1);
  });

  it("decides a run as a turn: a user the policy keeps from the supervisor gets the run's error, naming why", async () => {
    const oscar = `Bearer ${await tokenFor("oscar@example.com", SECRET, ["outsiders"])}`;
    const refused = await post(
      endpoint,
      {
        threadId: `ag-ui-${randomUUID()}`,
        runId: randomUUID(),
        messages: [{ id: "m1", role: "user", content: "jira: create a bug in OPS: an outsider's change" }],
      },
      oscar,
    );
    expect(refused.status).toBe(200);
    const error = refused.events.find(({ type }) => type === "RUN_ERROR");
    expect(error?.message).toContain("may not use the supervisor agent");
    expect(refused.events.some(({ type }) => type === "RUN_FINISHED")).toBe(false);
    expect(issuesNamed("an outsider's change")).toHaveLength(0);
  });

  it("refuses input it cannot run with a 400 that names the problem, before anything is stored", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ messages: [] }, /Invalid AG-UI run: not a RunAgentInput: threadId/],
      [
        { threadId: "t\u0000", runId: "r", messages: [{ id: "m", role: "user", content: "hi" }] },
        /threadId must not contain control characters/,
      ],
      [
        { threadId: "t", runId: "r", messages: [{ id: "m", role: "assistant", content: "hi" }] },
        /no user message/,
      ],
      [
        {
          threadId: "t",
          runId: "r",
          messages: [],
          resume: [{ interruptId: "x", status: "resolved", payload: { yes: 1 } }],
        },
        /resume\[\]\.payload must say/,
      ],
      [
        {
          threadId: "t",
          runId: "r",
          messages: [],
          resume: [
            { interruptId: "x", status: "resolved", payload: { decision: "approve" } },
            { interruptId: "x", status: "cancelled" },
          ],
        },
        /answers the same question two ways/,
      ],
    ];
    for (const [body, problem] of cases) {
      const answer = await post(endpoint, body, alice);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.text).toMatch(problem);
    }
  });
  describe("through CopilotKit's own runtime, from a CopilotKit front end", () => {
    it("streams a routed answer to the front end: the agent's step, its tool, the text as written, the state", async () => {
      // What a front end's core asks first: the runtime's agents.
      const info = (await (await fetch(`${copilot.url}/info`)).json()) as { agents: Record<string, unknown> };
      expect(Object.keys(info.agents)).toEqual(["supervisor"]);
      const agent = await frontEnd(copilot.url, alice);
      const { events, finished } = await runFromFrontEnd(agent, { say: "forward to jira: tell a story" });
      expect(outcomeOf(finished)).toEqual({ type: "success" });
      expect(
        events.some(
          (event) =>
            event.type === EventType.STEP_STARTED && (event as { stepName?: string }).stepName === "jira",
        ),
      ).toBe(true);
      // Through the runtime in pieces, as the subagent wrote them.
      expect(ofType(events, EventType.TEXT_MESSAGE_CONTENT).length).toBeGreaterThanOrEqual(3);
      expect(textOf(events)).toBe(STORY);
      expect(agent.messages.at(-1)).toMatchObject({ role: "assistant", content: STORY });
      expect(agent.state).toMatchObject({ agent: "supervisor", status: "success" });

      const search = await runFromFrontEnd(await frontEnd(copilot.url, alice), {
        say: "jira: open issues in OPS",
      });
      const call = ofType(search.events, EventType.TOOL_CALL_START).find(
        (event) => (event as { toolCallName?: string }).toolCallName === "search_issues",
      );
      expect(call).toMatchObject({ metadata: { agent: "jira" } });
      expect(textOf(search.events)).toContain("OPS-1");
    });

    it("puts a confirmation to the front end as an interrupt; the user's approval from it makes the change once", async () => {
      const agent = await frontEnd(copilot.url, alice);
      const asked = await runFromFrontEnd(agent, {
        say: "jira: create a bug in OPS: approved in copilotkit",
      });
      const outcome = outcomeOf(asked.finished);
      expect(outcome?.type).toBe("interrupt");
      const [interrupt] = outcome?.interrupts ?? [];
      expect(interrupt).toMatchObject({
        reason: "confirmation",
        message: expect.stringContaining("Shall I go ahead?"),
      });
      expect(agent.pendingInterrupts.map(({ id }) => id)).toEqual([interrupt?.id]);
      expect(issuesNamed("approved in copilotkit")).toHaveLength(0);

      // The front end cannot start another run past the question: it must answer it.
      await expect(runFromFrontEnd(agent, { say: "never mind, something else" })).rejects.toThrow(
        /pending interrupt/,
      );

      const argsHashes = (interrupt?.metadata as { argsHashes?: string[] } | undefined)?.argsHashes;
      const approved = await runFromFrontEnd(agent, {
        resume: [
          {
            interruptId: interrupt?.id as string,
            status: "resolved",
            payload: { decision: "approve", argsHashes },
          },
        ],
      });
      expect(outcomeOf(approved.finished)).toEqual({ type: "success" });
      expect(textOf(approved.events)).toMatch(/OPS-\d+/);
      expect(agent.pendingInterrupts).toEqual([]);
      expect(issuesNamed("approved in copilotkit")).toHaveLength(1);
    });

    it("runs each request as its own user: a forged token or a user the policy refuses gets nothing; another user on Alice's thread neither approves her interrupt nor replays her run", async () => {
      // The runtime passes the front end's token on; the supervisor refuses it before anything runs.
      const forged = `Bearer ${await tokenFor("alice@example.com", "another-secret-of-at-least-32-characters")}`;
      const refused = await runFromFrontEnd(await frontEnd(copilot.url, forged), {
        say: "jira: create a bug in OPS: forged in copilotkit",
      });
      expect(refused.finished).toBeUndefined();
      expect(ofType(refused.events, EventType.RUN_ERROR)).toEqual([
        expect.objectContaining({ message: expect.stringContaining("401") }),
      ]);
      expect(issuesNamed("forged in copilotkit")).toHaveLength(0);

      // A user the policy keeps from the supervisor gets the run's error, naming why.
      const outsider = `Bearer ${await tokenFor("oscar@example.com", SECRET, ["outsiders"])}`;
      const kept = await runFromFrontEnd(await frontEnd(copilot.url, outsider), {
        say: "jira: create a bug in OPS: an outsider in copilotkit",
      });
      expect(ofType(kept.events, EventType.RUN_ERROR)).toEqual([
        expect.objectContaining({ message: expect.stringContaining("may not use the supervisor agent") }),
      ]);
      expect(issuesNamed("an outsider in copilotkit")).toHaveLength(0);

      const threadId = `copilotkit-${randomUUID()}`;
      const asked = await runFromFrontEnd(await frontEnd(copilot.url, alice, threadId), {
        say: "jira: create a bug in OPS: alice in copilotkit",
      });
      const [interrupt] = outcomeOf(asked.finished)?.interrupts ?? [];
      expect(interrupt?.reason).toBe("confirmation");

      // Mallory's front end, on Alice's thread, answers Alice's interrupt: the supervisor has no such task of hers.
      const mallory = await frontEnd(
        copilot.url,
        `Bearer ${await tokenFor("mallory@example.com")}`,
        threadId,
      );
      const resumed = await runFromFrontEnd(mallory, {
        resume: [
          { interruptId: interrupt?.id as string, status: "resolved", payload: { decision: "approve" } },
        ],
      }).then(
        ({ events }) => events,
        (error: unknown) => [{ type: EventType.RUN_ERROR, message: String(error) } as BaseEvent],
      );
      expect(resumed.some((event) => event.type === EventType.RUN_FINISHED)).toBe(false);
      expect(issuesNamed("alice in copilotkit")).toHaveLength(0);

      // The runtime keeps each thread's events by threadId alone: its reconnect would replay Alice's
      // run to Mallory. Wired as the README says, it serves runs only, and her thread stays hers.
      const replayed: BaseEvent[] = [];
      const reconnect = await mallory
        .connectAgent({}, { onEvent: ({ event }) => void replayed.push(event) })
        .then(
          () => "connected",
          (error: unknown) => String(error),
        );
      expect(reconnect).toMatch(/404/);
      expect(JSON.stringify(replayed)).not.toContain("alice in copilotkit");
      const threads = await fetch(`${copilot.url}/threads`, {
        headers: { authorization: `Bearer ${await tokenFor("mallory@example.com")}` },
      });
      expect(threads.status).toBe(404);
      expect(await threads.text()).not.toContain(threadId);
    });
  });
});
