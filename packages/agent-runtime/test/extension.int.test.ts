import { randomUUID } from "node:crypto";
import { createLogger } from "@switchboard/common";
import { rules, type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { callerOf } from "../src/auth/bearer.js";
import { threadIdFor, tokenOf } from "../src/auth/caller.js";
import type { AgentDefinition } from "../src/definition.js";
import { type RunningAgent, serveAgent } from "../src/serve.js";
import { notesAgent } from "./notes-agent.js";

const SECRET = "switchboard-test-secret-of-at-least-32-chars";

function bearer(sub: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer("switchboard-test")
    .setAudience("switchboard")
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(new TextEncoder().encode(SECRET));
}

/** The notes agent with what an agent may add: a route of its own, a metric, a deletion step, cleanup. */
function extendedNotesAgent(closed: string[]): AgentDefinition {
  return {
    ...notesAgent([]),
    extend: ({ agent, routes, metrics, onDeleteConversation, onClose }) => {
      const lookups = metrics.counter({ name: "notes_whoami_total", help: "Who-am-I lookups." });
      routes.get("/whoami", async (req, res) => {
        lookups.inc();
        const caller = await callerOf(req);
        res.json({ agent, thread: threadIdFor("c1", caller), forwardsToken: tokenOf(caller) !== undefined });
      });
      routes.post("/echo", (req, res) => {
        res.json({ echoed: req.body });
      });
      onDeleteConversation(async (contextId, user) => ({
        archive: { contextId, withToken: tokenOf(user) !== undefined },
      }));
      onClose(() => {
        closed.push(agent);
      });
    },
  };
}

describe("what an agent adds to the runtime (AgentDefinition.extend)", () => {
  let llm: ScriptedLlm;
  let agent: RunningAgent | undefined;

  beforeAll(async () => {
    llm = await startScriptedLlm({ script: rules([], say("Noted.")) });
  });
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });
  afterAll(async () => {
    await llm.close();
  });

  const serve = (closed: string[], env: Record<string, string> = {}) =>
    serveAgent(extendedNotesAgent(closed), {
      env: {
        PORT: "0",
        HOST: "127.0.0.1",
        AGENT_NAME: "notes",
        LANGGRAPH_CHECKPOINT_TYPE: "memory",
        ...llm.env,
        ...env,
      },
      logger: createLogger({ level: "silent" }),
    });

  it("serves the agent's routes behind the bearer check, with the verified caller, and runs its cleanup on close", async () => {
    const closed: string[] = [];
    agent = await serve(closed, {
      AUTH_MODE: "jwt",
      AUTH_JWT_SECRET: SECRET,
      AUTH_ISSUER: "switchboard-test",
      AUTH_AUDIENCE: "switchboard",
    });
    expect((await fetch(`${agent.url}/whoami`)).status).toBe(401);
    const headers = { authorization: `Bearer ${await bearer("alice@example.com")}` };
    const response = await fetch(`${agent.url}/whoami`, { headers });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { agent: string; thread: string; forwardsToken: boolean };
    expect(body).toMatchObject({ agent: "notes", forwardsToken: true });
    // The caller's thread, as the runtime's own routes scope it: prefixed with their subject's key.
    expect(body.thread).toMatch(/^[0-9a-f]{16}:c1$/);

    const echoed = await fetch(`${agent.url}/echo`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ note: "hello" }),
    });
    expect(await echoed.json()).toEqual({ echoed: { note: "hello" } });
    // Paths nobody serves are still 404, token or not.
    expect((await fetch(`${agent.url}/nothing-here`)).status).toBe(404);

    await agent.close();
    agent = undefined;
    expect(closed).toEqual(["notes"]);
  });

  it("adds the agent's metrics to its /metrics, and its deletion step's answer to a deletion's", async () => {
    agent = await serve([]);
    await fetch(`${agent.url}/whoami`);
    expect(await (await fetch(`${agent.url}/metrics`)).text()).toMatch(/\nnotes_whoami_total 1\n/);
    const contextId = `gone-${randomUUID()}`;
    const deleted = await fetch(`${agent.url}/conversations/${contextId}`, { method: "DELETE" });
    expect(await deleted.json()).toEqual({
      agent: "notes",
      contextId,
      checkpoints: "deleted",
      tasks: 0,
      archive: { contextId, withToken: false },
    });
  });
});
