import { randomUUID } from "node:crypto";
import { connectAgent } from "@switchboard/a2a-client";
import { createLogger } from "@switchboard/common";
import { rules, type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MountedAgent, mountAgent } from "../src/mount.js";
import { serveAgent } from "../src/serve.js";
import { deskAgent } from "./desk-agent.js";
import { startTestHost, type TestHost } from "./mount-host.js";
import { notesAgent } from "./notes-agent.js";

describe("agents mounted behind one server at their own path prefixes", () => {
  const dbName = uniqueDbName("mount");
  const logger = createLogger({ level: "silent" });
  let host: TestHost;
  let agents: Map<string, MountedAgent>;
  let llm: ScriptedLlm;
  let base: string;
  let mongo: MongoClient;
  /** Collections each command on the host's client named: the agents' stores go through it. */
  const commanded = new Set<string>();

  beforeAll(async () => {
    llm = await startScriptedLlm({ script: rules([], say("Done.")) });
    mongo = await MongoClient.connect(testMongoUri(), { monitorCommands: true });
    mongo.on("commandStarted", (event) => {
      const collection = event.command[event.commandName];
      if (typeof collection === "string") commanded.add(collection);
    });
    host = await startTestHost();
    ({ base, agents } = host);
    const env = { ...testMongoEnv(dbName), ...llm.env };
    const [notes, desk] = await Promise.all([
      mountAgent(notesAgent([]), { env, logger, publicUrl: `${base}/agents/notes`, mongo }),
      mountAgent(deskAgent, { env, logger, publicUrl: `${base}/agents/desk/`, mongo }),
    ]);
    agents.set("notes", notes).set("desk", desk);
  });
  afterAll(async () => {
    await host?.close();
    await mongo?.close();
    await llm?.close();
  });

  it("each is reached at its prefix: its card names it there, it answers a turn, in its own collections", async () => {
    const contextId = `mounted-${randomUUID()}`;
    for (const id of ["notes", "desk"]) {
      const prefix = `${base}/agents/${id}`;
      const card = (await (await fetch(`${prefix}/.well-known/agent-card.json`)).json()) as {
        name: string;
        supportedInterfaces: Array<{ url: string }>;
      };
      expect(card.name.toLowerCase()).toBe(id);
      const urls = card.supportedInterfaces.map(({ url }) => url);
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) expect(url.startsWith(`${prefix}/`) || url === prefix).toBe(true);
      expect(agents.get(id)?.publicUrl).toBe(prefix);

      const connection = await connectAgent(prefix, { logger });
      const turn = await connection.send({ text: "hello", contextId });
      expect(turn.state).toBe("completed");
      expect(turn.text).toBe("Done.");
    }
    // The agents' own commands, before the test's reads below go through the same client.
    const theirs = new Set(commanded);
    const db = mongo.db(dbName);
    for (const id of ["notes", "desk"]) {
      expect(
        await db.collection(`checkpoints_${id}`).countDocuments({ thread_id: contextId }),
      ).toBeGreaterThan(0);
      expect(await db.collection(`tasks_${id}`).countDocuments({ contextId })).toBe(1);
      // On the host's one client: checkpoints, tasks and long-term memory alike.
      for (const collection of [`checkpoints_${id}`, `tasks_${id}`, `store_${id}`]) {
        expect(theirs, collection).toContain(collection);
      }
    }
  });

  it("serves each agent's own /metrics, /health and /ready under its prefix", async () => {
    const page = async (id: string) => (await fetch(`${base}/agents/${id}/metrics`)).text();
    const calls = (text: string, agent: string) =>
      text.match(new RegExp(`switchboard_model_calls_total\\{agent="${agent}"[^}]*\\} (\\d+)`))?.[1];
    await expect.poll(async () => calls(await page("notes"), "notes")).toBeDefined();
    const notesPage = await page("notes");
    const deskPage = await page("desk");
    expect(calls(notesPage, "desk")).toBeUndefined();
    expect(calls(deskPage, "notes")).toBeUndefined();
    expect(calls(deskPage, "desk")).toBeDefined();
    // Checkpoint reads and writes on each page are its own agent's only (one shared client).
    for (const [id, text] of [
      ["notes", notesPage],
      ["desk", deskPage],
    ] as const) {
      const agentsSeen = new Set(
        [...text.matchAll(/^switchboard_checkpoint_write_duration_seconds_count\{([^}]*)\}/gm)].map(
          ([, labels]) => /agent="([^"]*)"/.exec(labels ?? "")?.[1],
        ),
      );
      expect([...agentsSeen]).toEqual([id]);
    }
    for (const id of ["notes", "desk"]) {
      expect(await (await fetch(`${base}/agents/${id}/health`)).json()).toEqual({ status: "ok", agent: id });
      expect((await fetch(`${base}/agents/${id}/ready`)).status).toBe(200);
      expect(await agents.get(id)?.ready()).toBe(true);
    }
  });

  it("drains one without disturbing the other, and leaves the host's MongoDB client open", async () => {
    const notes = agents.get("notes");
    if (!notes) throw new Error("notes is not mounted");
    await notes.drain(0);
    expect(await notes.ready()).toBe(false);
    const gone = await fetch(`${base}/agents/notes/message:send`, { method: "POST", body: "{}" });
    expect(gone.status).toBe(503);

    const desk = await connectAgent(`${base}/agents/desk`, { logger });
    const turn = await desk.send({ text: "still there?", contextId: `after-${randomUUID()}` });
    expect(turn.state).toBe("completed");
    expect(await mongo.db(dbName).command({ ping: 1 })).toMatchObject({ ok: 1 });
  });

  it("refuses a definition whose name cannot name its collections, before anything opens", async () => {
    for (const name of ["checkpoints_desk/../x", "Desk", "", "a".repeat(64), "notes\u0000"]) {
      await expect(
        mountAgent(
          { ...notesAgent([]), name },
          { env: { ...testMongoEnv(dbName), ...llm.env }, logger, publicUrl: `${base}/agents/x`, mongo },
        ),
      ).rejects.toThrow(/cannot name MongoDB collections.*give the agent an id of that form/);
    }
  });

  it("gives an agent named like a packaged one none of that agent's MCP servers or model settings from the host's env", async () => {
    // The host's env holds the packaged desk agent's servers, with their credential; a mounted "desk"
    // would fail to start if it tried this one (nothing listens there), and served, it does.
    const env = {
      ...testMongoEnv(dbName),
      ...llm.env,
      DESK_MCP_SERVERS: JSON.stringify({
        tickets: { url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer desk-operator-secret" } },
      }),
      DESK_MCP_CONFIRM_TOOLS: "create_ticket",
      // Nor the packaged agent's model settings: nothing listens here either.
      DESK_OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
    };
    const mounted = await mountAgent(
      { ...deskAgent, name: "desk" },
      { env, logger, publicUrl: `${base}/agents/desk-again`, mongo },
    );
    agents.set("desk-again", mounted);
    try {
      const turn = await (await connectAgent(`${base}/agents/desk-again`, { logger })).send({
        text: "hello",
      });
      expect(turn.state).toBe("completed");
      expect(turn.text).toBe("Done.");
    } finally {
      agents.delete("desk-again");
      await mounted.close();
    }
    await expect(
      serveAgent(deskAgent, { env: { ...env, PORT: "0", HOST: "127.0.0.1", AGENT_NAME: "desk" }, logger }),
    ).rejects.toThrow(/MCP server "tickets" at http:\/\/127\.0\.0\.1:9\/mcp cannot be reached/);
  });
});
