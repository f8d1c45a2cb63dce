import { createHash, randomUUID } from "node:crypto";
import { connectAgent } from "@switchboard/a2a-client";
import { collectionsFor } from "@switchboard/contract";
import { agentCollections, MongoCheckpointSaver } from "@switchboard/utils";
import { type FakeGithub, startFakeGithub } from "@switchboard-testing/fake-github";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { type AgentProcess, freePort } from "@switchboard-testing/test-agents";
import { hopKeys } from "@switchboard-testing/test-idp";
import {
  callTool,
  heldReply,
  offeredToolNames,
  recallUserMessages,
  replyFromToolResult,
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { storedText, testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { startPythonA2aAgent } from "@switchboard-testing/test-python";
import { SignJWT } from "jose";
import { MongoClient } from "mongodb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startAgent } from "./fleet.js";

/** The subagent's model "thinks" about "take your time" until the test releases it. */
const slow = heldReply(say("Done at last."));

/** The supervisor forwards "<agent>: <request>" to that agent; subagents follow their own rules. */
const script = rules(
  [
    ...routeByAgentPrefix(),
    { toolOffered: "call_agent", reply: say("Tell me which agent to ask.") },
    { lastUser: /take your time/, reply: slow.reply },
    {
      lastUser: /open issues in ([A-Z]+)/,
      reply: (_r, { match }) =>
        callTool("search_issues", { jql: `project = ${match?.[1]} ORDER BY updated DESC` }),
    },
    {
      lastUser: /open pull requests in (\S+)/,
      reply: (_r, { match }) => callTool("list_pull_requests", { repo: match?.[1], state: "open" }),
    },
    {
      lastUser: /create a bug in ([A-Z]+): (.+)/,
      reply: (_r, { match }) =>
        callTool("create_issue", { project: match?.[1], summary: match?.[2], issue_type: "Bug" }),
    },
    {
      lastUser: /what did I ask/,
      reply: recallUserMessages("Earlier you asked: "),
    },
    // "use <tool> [<json>]": a subagent calls one of its own tools, with those arguments or none.
    {
      lastUser: /^use (\w+)(?: (\{.*\}))?$/,
      reply: (_r, { match }) => callTool(match?.[1] ?? "", JSON.parse(match?.[2] ?? "{}")),
    },
    { afterTool: true, reply: replyFromToolResult() },
  ],
  say("I only know Jira."),
);

describe("supervisor routing over A2A", () => {
  const dbName = uniqueDbName("supervisor");
  let llm: ScriptedLlm;
  let jira: FakeJira;
  let github: FakeGithub;
  let mongo: MongoClient;
  const processes: AgentProcess[] = [];
  let jiraPort: number;
  let supervisorPort: number;

  const common = () => ({
    ...testMongoEnv(dbName),
    ...llm.env,
  });
  const startJira = async () => {
    const agent = await startAgent("jira", jiraPort, {
      ...common(),
      ATLASSIAN_API_URL: jira.url,
      ATLASSIAN_EMAIL: jira.email,
      ATLASSIAN_TOKEN: jira.token,
    });
    processes.push(agent);
    return agent;
  };
  const startSupervisor = async (extra: Record<string, string> = {}) => {
    const agent = await startAgent("supervisor", supervisorPort, {
      ...common(),
      ENABLE_JIRA: "true",
      JIRA_AGENT_URL: `http://127.0.0.1:${jiraPort}`,
      ENABLE_WEATHER: "false",
      ...extra,
    });
    processes.push(agent);
    return agent;
  };
  const ask = async (text: string, contextId: string, taskId?: string, token?: string) => {
    const connection = await connectAgent(`http://127.0.0.1:${supervisorPort}`, token ? { token } : {});
    return connection.send({ text, contextId, ...(taskId ? { taskId } : {}) });
  };

  beforeAll(async () => {
    [llm, jira, github, mongo, jiraPort, supervisorPort] = await Promise.all([
      startScriptedLlm({ script }),
      startFakeJira(),
      startFakeGithub(),
      MongoClient.connect(testMongoUri()),
      freePort(),
      freePort(),
    ]);
  });
  afterEach(async () => {
    await Promise.all(processes.splice(0).map((agent) => agent.kill("SIGTERM")));
  });
  afterAll(async () => {
    await mongo.db(dbName).dropDatabase();
    await Promise.all([mongo.close(), llm.close(), jira.close(), github.close()]);
  });

  const latestChannels = async (agent: string, thread: string) => {
    const saver = new MongoCheckpointSaver({ db: mongo.db(dbName), collections: agentCollections(agent) });
    const tuple = await saver.getTuple({ configurable: { thread_id: thread } });
    return tuple?.checkpoint.channel_values ?? {};
  };

  it("reports its subagents on GET /subagents: connected ones with their skills, down ones without where they run", async () => {
    await startJira();
    const downPort = await freePort();
    await startSupervisor({ ENABLE_GITHUB: "true", GITHUB_AGENT_URL: `http://127.0.0.1:${downPort}` });
    const read = async () =>
      (
        (await (await fetch(`http://127.0.0.1:${supervisorPort}/subagents`)).json()) as {
          subagents: Array<{ name: string; status: string; skills: unknown[]; reason?: string }>;
        }
      ).subagents;
    await expect
      .poll(async () => (await read()).map((agent) => [agent.name, agent.status]))
      .toEqual([
        ["github", "unreachable"],
        ["jira", "available"],
      ]);
    const [github, jiraAgent] = await read();
    // Why it is down names its host: that stays in the supervisor's log, never in the answer.
    expect(github?.reason).toBe("The supervisor cannot reach it now; the supervisor's log says why.");
    expect(JSON.stringify(await read())).not.toMatch(/127\.0\.0\.1|http:/);
    expect(github?.skills).toEqual([]);
    expect(jiraAgent?.skills).toContainEqual(expect.objectContaining({ id: expect.any(String) }));
  });

  it("keeps one conversation across GitHub and Jira, each in its own collections", async () => {
    await startJira();
    const githubAgent = await startAgent("github", await freePort(), {
      ...common(),
      GITHUB_API_URL: github.url,
      GITHUB_PERSONAL_ACCESS_TOKEN: github.token,
    });
    processes.push(githubAgent);
    await startSupervisor({ ENABLE_GITHUB: "true", GITHUB_AGENT_URL: githubAgent.url });
    const contextId = `conv-${randomUUID()}`;
    const prs = await ask("github: open pull requests in acme/platform-api", contextId);
    expect(prs.text).toMatch(/#\d+/);
    const issues = await ask("jira: open issues in OPS", contextId);
    expect(issues.text).toContain("OPS-1");

    const db = mongo.db(dbName);
    for (const agent of ["supervisor", "github", "jira"]) {
      expect(
        await db.collection(`checkpoints_${agent}`).countDocuments({ thread_id: contextId }),
      ).toBeGreaterThan(0);
    }
    const toolNames = async (agent: string) =>
      (((await latestChannels(agent, contextId)).messages as Array<{ name?: string }>) ?? []).map(
        (m) => m.name,
      );
    expect(await toolNames("github")).toContain("list_pull_requests");
    expect(await toolNames("github")).not.toContain("search_issues");
    expect(await toolNames("jira")).toContain("search_issues");
    expect(await toolNames("jira")).not.toContain("list_pull_requests");
  });

  it("passes the caller on in a token for each agent alone: each agent verifies it and keys the thread by the same user", async () => {
    const secret = "a-shared-test-secret-of-32-characters!";
    const auth = {
      AUTH_MODE: "jwt",
      AUTH_JWT_SECRET: secret,
      AUTH_ISSUER: "switchboard-test",
      AUTH_AUDIENCE: "switchboard",
      ...hopKeys(),
    };
    const jiraAgent = await startAgent("jira", jiraPort, {
      ...common(),
      ...auth,
      ATLASSIAN_API_URL: jira.url,
      ATLASSIAN_EMAIL: jira.email,
      ATLASSIAN_TOKEN: jira.token,
    });
    processes.push(jiraAgent);
    await startSupervisor(auth);
    const bearer = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("switchboard-test")
      .setIssuedAt()
      .setSubject("alice@example.com")
      .setAudience("switchboard")
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode(secret));
    const contextId = `authed-${randomUUID()}`;

    await expect(ask("jira: open issues in PLAT", contextId)).rejects.toThrow(
      /Unauthorized: a bearer token is required/,
    );
    const answer = await ask("jira: open issues in PLAT", contextId, undefined, bearer);
    expect(answer.text).toContain("PLAT-1");

    const thread = `${createHash("sha256").update("alice@example.com").digest("hex").slice(0, 16)}:${contextId}`;
    const db = mongo.db(dbName);
    expect(
      await db.collection("checkpoints_supervisor").countDocuments({ thread_id: thread }),
    ).toBeGreaterThan(0);
    expect(await db.collection("checkpoints_jira").countDocuments({ thread_id: thread })).toBeGreaterThan(0);
    expect(await db.collection("checkpoints_jira").countDocuments({ thread_id: contextId })).toBe(0);
    expect(await storedText(db)).not.toContain(bearer);
  });

  it("continues a conversation after the Jira agent and then the supervisor are killed and restarted", async () => {
    let jiraAgent = await startJira();
    let supervisor = await startSupervisor();
    const contextId = `conv-${randomUUID()}`;
    await ask("jira: open issues in OPS", contextId);

    await jiraAgent.kill("SIGKILL");
    jiraAgent = await startJira();
    const afterJiraRestart = await ask("jira: what did I ask before?", contextId);
    expect(afterJiraRestart.state).toBe("completed");
    expect(afterJiraRestart.text).toContain("open issues in OPS");

    await supervisor.kill("SIGKILL");
    supervisor = await startSupervisor();
    const asked = await ask("jira: create a bug in OPS: after restarts", contextId);
    expect(asked.state).toBe("input-required");
    await supervisor.kill("SIGKILL");
    supervisor = await startSupervisor();
    const done = await ask("yes", contextId, asked.taskId);
    expect(done.state).toBe("completed");
    expect(jira.issues.filter((issue) => issue.summary === "after restarts")).toHaveLength(1);
  });

  it("lets an agent that starts after the supervisor join without a restart", async () => {
    await startSupervisor();
    const contextId = `conv-${randomUUID()}`;
    const early = await ask("jira: open issues in PLAT", contextId);
    expect(early.state).toBe("completed");
    expect(early.text).toMatch(/The jira agent (is not available|could not be reached)/);

    await startJira();
    await expect
      .poll(async () => (await ask("jira: open issues in PLAT", contextId)).text, {
        timeout: 20_000,
        interval: 500,
      })
      .toMatch(/PLAT-1/);
  });

  it("refuses an agent whose card names another agent, and says why", async () => {
    await startJira();
    const supervisor = await startSupervisor({
      ENABLE_GITHUB: "true",
      GITHUB_AGENT_URL: `http://127.0.0.1:${jiraPort}`,
    });
    const contextId = `conv-${randomUUID()}`;
    await expect
      .poll(async () => (await ask("github: open pull requests in acme/infra", contextId)).text, {
        timeout: 15_000,
      })
      .toContain(
        'The github agent is not available: its card is named "jira", but ENABLE_GITHUB expects "github"',
      );
    expect(supervisor.logs()).toContain(`Refusing the agent at http://127.0.0.1:${jiraPort}`);
    expect((await ask("jira: open issues in PLAT", contextId)).text).toContain("PLAT-1");
  });

  it("forgets a refused agent's card once that agent goes away: GET /subagents shows no skills it lacks", async () => {
    await startJira();
    const impostor = await startAgent("jira", await freePort(), common());
    processes.push(impostor);
    await startSupervisor({ ENABLE_GITHUB: "true", GITHUB_AGENT_URL: impostor.url });
    const github = async () => {
      const response = await fetch(`http://127.0.0.1:${supervisorPort}/subagents`);
      const { subagents } = (await response.json()) as {
        subagents: Array<{ name: string; status: string; description?: string; skills: unknown[] }>;
      };
      return subagents.find((agent) => agent.name === "github");
    };
    await expect.poll(async () => (await github())?.status).toBe("refused");
    expect((await github())?.skills).not.toEqual([]);

    await impostor.kill("SIGTERM");
    await expect.poll(async () => (await github())?.status, { timeout: 20_000 }).toBe("unreachable");
    expect(await github()).toMatchObject({ skills: [] });
    expect((await github())?.description).toBeUndefined();
  });

  it("stops the subagent's turn when its turn is canceled, so the conversation goes on at once", async () => {
    await startJira();
    await startSupervisor();
    slow.hold();
    const contextId = `conv-${randomUUID()}`;
    const connection = await connectAgent(`http://127.0.0.1:${supervisorPort}`);
    const started = slow.calls;
    const events: string[] = [];
    let taskId = "";
    const turn = (async () => {
      for await (const event of connection.stream({ text: "jira: take your time", contextId })) {
        if (event.kind === "task") taskId = event.taskId;
        if (event.kind === "status") events.push(event.state);
      }
    })();
    await expect.poll(() => slow.calls, { timeout: 15_000 }).toBe(started + 1);
    expect((await connection.cancel(taskId)).state).toBe("canceled");
    await turn;
    expect(events.at(-1)).toBe("canceled");

    const [jiraTask] = await mongo
      .db(dbName)
      .collection(collectionsFor("jira").tasks)
      .find({ contextId })
      .toArray();
    const jiraAgent = await connectAgent(`http://127.0.0.1:${jiraPort}`);
    await expect.poll(async () => (await jiraAgent.getTask(String(jiraTask?.taskId))).state).toBe("canceled");
    // The subagent's thread is free: the next message is answered while the slow model call still hangs.
    const next = await ask("jira: open issues in PLAT", contextId);
    expect(next.text).toContain("PLAT-1");
    slow.release();
  });

  it("answers clearly for a disabled or unreachable agent, and keeps serving", async () => {
    await startJira();
    const deadPort = await freePort();
    await startSupervisor({ ENABLE_GITHUB: "true", GITHUB_AGENT_URL: `http://127.0.0.1:${deadPort}` });
    const contextId = `conv-${randomUUID()}`;
    const disabled = await ask("weather: forecast for Paris", contextId);
    expect(disabled.state).toBe("completed");
    expect(disabled.text).toContain('No agent named "weather" is enabled (enabled: github, jira)');

    const unreachable = await ask("github: open pull requests", contextId);
    expect(unreachable.text).toMatch(/The github agent is not available: .*(ECONNREFUSED|reach)/);

    const next = await ask("jira: open issues in PLAT", contextId);
    expect(next.text).toContain("PLAT-1");
  });

  it("routes to each of CAIPE's catalogue agents, which answers from its own card and tools without credentials", async () => {
    // Started as npm start starts an agent whose vendor is not configured: each serves its card,
    // and a turn that needs its vendor fails naming that agent's own settings.
    const catalogue = [
      { agent: "komodor", tool: "list_clusters", settings: "set KOMODOR_TOKEN" },
      { agent: "splunk", tool: "list_detectors", settings: "set SPLUNK_API_URL, SPLUNK_TOKEN" },
      { agent: "victorops", tool: "list_teams", settings: "set X_VO_API_ID, X_VO_API_KEY" },
      { agent: "webex", tool: "list_rooms", settings: "set WEBEX_TOKEN" },
      { agent: "petstore", tool: "find_pets_by_status", settings: "needs PETSTORE_API_KEY" },
      // NetUtils and Weather need no credentials: NetUtils refuses a loopback target by default (the
      // network guard), and Weather names its settings when Open-Meteo cannot be reached.
      {
        agent: "netutils",
        tool: 'check_port {"host":"127.0.0.1","port":9}',
        settings: "NetUtils checks go only to public addresses unless NETUTILS_ALLOW_PRIVATE_NETWORKS=true",
      },
      {
        agent: "weather",
        tool: 'find_place {"place":"Paris"}',
        settings: "check WEATHER_API_URL",
        env: { WEATHER_GEOCODING_API_URL: "http://127.0.0.1:9" },
      },
    ];
    const ports = await Promise.all(catalogue.map(() => freePort()));
    // One at a time: seven agents starting at once on two busy cores outlast the start timeout.
    for (const [i, one] of catalogue.entries()) {
      processes.push(
        await startAgent(one.agent, ports[i] ?? 0, { ...common(), ...("env" in one ? one.env : {}) }),
      );
    }
    await startSupervisor(
      Object.fromEntries(
        catalogue.flatMap(({ agent }, i) => [
          [`ENABLE_${agent.toUpperCase()}`, "true"],
          [`${agent.toUpperCase()}_AGENT_URL`, `http://127.0.0.1:${ports[i]}`],
        ]),
      ),
    );
    const statuses = async () =>
      (
        (await (await fetch(`http://127.0.0.1:${supervisorPort}/subagents`)).json()) as {
          subagents: Array<{ name: string; status: string }>;
        }
      ).subagents
        .filter((one) => one.name !== "jira")
        .map((one) => [one.name, one.status]);
    // GET /subagents lists them by name.
    const names = catalogue.map(({ agent }) => agent).sort();
    await expect.poll(statuses).toEqual(names.map((agent) => [agent, "available"]));
    for (const { agent, tool, settings } of catalogue) {
      const answer = await ask(`${agent}: use ${tool}`, `conv-${randomUUID()}`);
      expect(answer.text).toContain(settings);
    }
  });

  it("routes to a Python a2a-sdk 0.3 agent enabled by its card's display name, which receives the forwarded contextId", async () => {
    // Card names are display names, as in the A2A samples: "Hello World Agent" is ENABLE_HELLO_WORLD_AGENT.
    const python = await startPythonA2aAgent({
      name: "Hello World Agent",
      description: "Echoes what it is told.",
    });
    try {
      await startSupervisor({ ENABLE_HELLO_WORLD_AGENT: "true", HELLO_WORLD_AGENT_AGENT_URL: python.url });
      // A UUID: what a 0.3 agent is sent verbatim (a2a-client maps any other id to one, legacy-context.ts).
      const contextId = randomUUID();
      const result = await ask("hello_world_agent: hello from switchboard", contextId);
      expect(result.text).toContain("Hello World Agent echo: hello from switchboard");
      const received = await python.received();
      expect(received.at(-1)).toMatchObject({ contextId, text: "hello from switchboard" });
      expect(received.at(-1)?.metadata).toMatchObject({ context_id: contextId });
    } finally {
      await python.stop();
    }
  });

  it("routes to a Python a2a-sdk 1.x agent (A2A 1.0) built like the A2A helloworld sample, which receives the forwarded contextId", async () => {
    // Its card is a 1.0 card with a JSONRPC 1.0 interface only, so the supervisor must speak 1.0 to it.
    const python = await startPythonA2aAgent({
      name: "Hello World Agent",
      description: "Echoes what it is told.",
      sdk: "1.x",
    });
    try {
      await startSupervisor({ ENABLE_HELLO_WORLD_AGENT: "true", HELLO_WORLD_AGENT_AGENT_URL: python.url });
      const contextId = `conv-${randomUUID()}`;
      const result = await ask("hello_world_agent: hello from switchboard", contextId);
      expect(result.text).toContain("Hello World Agent echo: hello from switchboard");
      const received = await python.received();
      expect(received.at(-1)).toMatchObject({ contextId, text: "hello from switchboard" });
      expect(received.at(-1)?.metadata).toMatchObject({ context_id: contextId });
    } finally {
      await python.stop();
    }
  });

  // These tests need nothing but a Jira agent and a supervisor with the default settings: they share
  // one of each (each test in conversations of its own), where each used to start both.
  describe("with one Jira agent and supervisor running", () => {
    const fleet: AgentProcess[] = [];
    beforeAll(async () => {
      await startJira();
      await startSupervisor();
      fleet.push(...processes.splice(0));
    });
    afterAll(async () => {
      await Promise.all(fleet.splice(0).map((agent) => agent.kill("SIGTERM")));
    });

    it("forwards its contextId to Jira on every hop; each agent keeps the thread in its own collections", async () => {
      const contextId = `conv-${randomUUID()}`;
      const first = await ask("jira: open issues in PLAT", contextId);
      expect(first.state).toBe("completed");
      expect(first.text).toMatch(/PLAT-1 \[In Progress\] Upgrade EKS cluster to 1\.30/);

      const second = await ask("jira: what did I ask before?", contextId);
      expect(second.text).toContain("open issues in PLAT");

      const db = mongo.db(dbName);
      expect(
        await db.collection("checkpoints_supervisor").countDocuments({ thread_id: contextId }),
      ).toBeGreaterThan(0);
      expect(
        await db.collection("checkpoints_jira").countDocuments({ thread_id: contextId }),
      ).toBeGreaterThan(0);
      const jiraTasks = await db.collection("tasks_jira").find({ contextId }).toArray();
      expect(jiraTasks).toHaveLength(2);

      const supervisorState = await latestChannels("supervisor", contextId);
      const jiraState = await latestChannels("jira", contextId);
      expect(Object.keys(supervisorState)).toContain("pendingRelays");
      expect(Object.keys(jiraState)).not.toContain("pendingRelays");
      const toolNames = (state: Record<string, unknown>) =>
        ((state.messages as Array<{ name?: string }>) ?? []).map((message) => message.name).filter(Boolean);
      expect(toolNames(jiraState)).toContain("search_issues");
      expect(toolNames(supervisorState)).not.toContain("search_issues");
      expect(toolNames(supervisorState)).toContain("call_agent");
    });

    it("streams which agent is working and which tool it calls, then the answer", async () => {
      const connection = await connectAgent(`http://127.0.0.1:${supervisorPort}`);
      const seen: string[] = [];
      for await (const event of connection.stream({
        text: "jira: open issues in OPS",
        contextId: `conv-${randomUUID()}`,
      })) {
        if (event.kind === "status" && event.text) seen.push(`${event.state}:${event.text}`);
        if (event.kind === "artifact" && event.lastChunk) seen.push("answer");
      }
      const asking = seen.indexOf("working:Asking the jira agent");
      const tool = seen.indexOf("working:jira: Calling search_issues");
      expect(asking).toBeGreaterThan(-1);
      expect(tool).toBeGreaterThan(asking);
      expect(seen.indexOf("answer")).toBeGreaterThan(tool);
      expect(seen.at(-1)).toMatch(/^completed:.*OPS-1/s);
    });

    it("deletes one conversation from its own and every subagent's collections", async () => {
      const contextId = `forget-${randomUUID()}`;
      const other = `keep-${randomUUID()}`;
      await ask("jira: open issues in PLAT", contextId);
      await ask("jira: open issues in OPS", other);

      const response = await fetch(`http://127.0.0.1:${supervisorPort}/conversations/${contextId}`, {
        method: "DELETE",
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        agent: "supervisor",
        contextId,
        tasks: 1,
        subagents: [{ agent: "jira", contextId, tasks: 1 }],
      });
      const db = mongo.db(dbName);
      for (const collection of ["checkpoints", "checkpoint_writes"]) {
        for (const agent of ["supervisor", "jira"]) {
          expect(await db.collection(`${collection}_${agent}`).countDocuments({ thread_id: contextId })).toBe(
            0,
          );
          if (collection === "checkpoints") {
            expect(
              await db.collection(`${collection}_${agent}`).countDocuments({ thread_id: other }),
            ).toBeGreaterThan(0);
          }
        }
      }
      expect(await db.collection("tasks_jira").countDocuments({ contextId })).toBe(0);
      expect(await db.collection("tasks_supervisor").countDocuments({ contextId })).toBe(0);
    });

    it("relays Jira's confirmation to the user and sends the answer to the same Jira task", async () => {
      const contextId = `conv-${randomUUID()}`;
      const before = jira.issues.length;
      const asked = await ask("jira: create a bug in OPS: pager storm at night", contextId);
      expect(asked.state).toBe("input-required");
      expect(asked.question).toContain(
        'The jira agent asks: Create a Jira Bug in OPS: "pager storm at night"',
      );
      expect(jira.issues).toHaveLength(before);

      const done = await ask("yes", contextId, asked.taskId);
      expect(done.state).toBe("completed");
      const created = jira.issues.filter((issue) => issue.summary === "pager storm at night");
      expect(created).toHaveLength(1);
      expect(done.text).toContain(`Created ${created[0]?.key}`);
      const jiraTasks = await mongo.db(dbName).collection("tasks_jira").find({ contextId }).toArray();
      expect(jiraTasks).toHaveLength(1);
    });

    it("passes a lone answer marked final to the user as Jira wrote it, without a second model step", async () => {
      const supervisorModelCalls = () =>
        llm.requests.filter((request) => offeredToolNames(request).includes("call_agent")).length;
      const jiraDirect = await connectAgent(`http://127.0.0.1:${jiraPort}`);
      const direct = await jiraDirect.send({ text: "open issues in OPS", contextId: `conv-${randomUUID()}` });

      let calls = supervisorModelCalls();
      const forwarded = await ask("forward to jira: open issues in OPS", `conv-${randomUUID()}`);
      expect(forwarded.state).toBe("completed");
      expect(forwarded.text).toBe(direct.text);
      expect(supervisorModelCalls() - calls).toBe(1);

      // Without `final` the supervisor's model answers from the tool result: a second call.
      calls = supervisorModelCalls();
      const composed = await ask("jira: open issues in OPS", `conv-${randomUUID()}`);
      expect(composed.text).toBe(`The jira agent answered: ${direct.text}`);
      expect(supervisorModelCalls() - calls).toBe(2);

      // A confirmation on the way: the outcome the user's answer led to is forwarded the same way.
      const contextId = `conv-${randomUUID()}`;
      calls = supervisorModelCalls();
      const asked = await ask("forward to jira: create a bug in OPS: disk full on db-2", contextId);
      expect(asked.state).toBe("input-required");
      const done = await ask("yes", contextId, asked.taskId);
      expect({ state: done.state, text: done.text }).toMatchObject({ state: "completed" });
      const created = jira.issues.filter((issue) => issue.summary === "disk full on db-2");
      expect(created).toHaveLength(1);
      expect(done.text).toContain(`Created ${created[0]?.key}`);
      expect(done.text).not.toContain("The jira agent answered");
      expect(supervisorModelCalls() - calls).toBe(1);

      // The next turn's model call sees the forwarded answer as the supervisor's own.
      const next = await ask("jira: open issues in OPS", contextId);
      expect(next.state).toBe("completed");
      const sent = llm.requests.findLast((request) => offeredToolNames(request).includes("call_agent"));
      expect(sent?.messages).toContainEqual(
        expect.objectContaining({ role: "assistant", content: done.text }),
      );
    });
  });
});
