import { createHash, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { Writable } from "node:stream";
import { ClientFactory } from "@a2a-js/sdk/client";
import { createLogger } from "@switchboard/common";
import {
  callTool,
  recallUserMessages,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { storedText, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { MongoClient } from "mongodb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunningAgent } from "../src/serve.js";
import { send, stateOf, statusText } from "./a2a.js";
import { serveNotesAgent } from "./notes-agent.js";

const SECRET = "switchboard-test-secret-of-at-least-32-chars";
const ISSUER = "https://id.example.test";
const AUDIENCE = "switchboard";

function token(
  sub: string,
  options: { secret?: string; audience?: string; expiresIn?: string } = {},
): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(sub)
    .setIssuer(ISSUER)
    .setAudience(options.audience ?? AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? "5m")
    .sign(new TextEncoder().encode(options.secret ?? SECRET));
}

async function clientWithToken(url: string, bearer: string) {
  return new ClientFactory().createFromUrl(url).then((client) => ({
    send: (text: string, contextId: string, taskId = "") =>
      send(client, text, contextId, taskId, { serviceParameters: { Authorization: `Bearer ${bearer}` } }),
    getTask: (id: string) =>
      client.getTask(
        { tenant: "", id, historyLength: undefined },
        { serviceParameters: { Authorization: `Bearer ${bearer}` } },
      ),
  }));
}

describe("bearer-token authentication and per-user isolation", () => {
  const dbName = uniqueDbName("auth");
  const notes: string[] = [];
  const logLines: string[] = [];
  let llm: ScriptedLlm;
  let mongo: MongoClient;
  let agent: RunningAgent | undefined;

  const start = async (extra: Record<string, string> = {}) => {
    agent = await serveNotesAgent({
      llm,
      dbName,
      notes,
      env: {
        AUTH_MODE: "jwt",
        AUTH_JWT_SECRET: SECRET,
        AUTH_ISSUER: ISSUER,
        AUTH_AUDIENCE: AUDIENCE,
        ...extra,
      },
      logger: createLogger({
        level: "debug",
        destination: new Writable({
          write(chunk, _encoding, done) {
            logLines.push(chunk.toString());
            done();
          },
        }),
      }),
    });
    return agent;
  };

  beforeAll(async () => {
    llm = await startScriptedLlm({
      script: rules(
        [
          { lastUser: /add note (.+)/, reply: (_r, { match }) => callTool("add_note", { text: match?.[1] }) },
          { afterTool: true, reply: replyFromToolResult() },
        ],
        recallUserMessages("I have seen: "),
      ),
    });
    mongo = await MongoClient.connect(testMongoUri());
  });
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
    notes.length = 0;
  });
  afterAll(async () => {
    await mongo.db(dbName).dropDatabase();
    await Promise.all([mongo.close(), llm.close()]);
  });

  it("refuses requests without a valid token before anything runs or is stored", async () => {
    const { url } = await start();
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "message/send",
      params: {
        message: { kind: "message", role: "user", messageId: "m1", parts: [{ kind: "text", text: "hi" }] },
      },
    });
    const headers = { "content-type": "application/json" };
    const cases: Array<Record<string, string>> = [
      {},
      { authorization: "Bearer not-a-jwt" },
      {
        authorization: `Bearer ${await token("alice", { secret: "another-secret-that-is-long-enough-000" })}`,
      },
      { authorization: `Bearer ${await token("alice", { audience: "someone-else" })}` },
      { authorization: `Bearer ${await token("alice", { expiresIn: "-1m" })}` },
    ];
    for (const extra of cases) {
      const response = await fetch(url, { method: "POST", headers: { ...headers, ...extra }, body });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toContain("Bearer");
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
        /^Unauthorized: /,
      );
    }
    const rest = await fetch(`${url}/rest/message:send`, { method: "POST", headers, body: "{}" });
    expect(rest.status).toBe(401);
    expect(await mongo.db(dbName).collection("tasks_notes").countDocuments()).toBe(0);
  });

  it("declares the bearer scheme on its card, in both protocol versions", async () => {
    const { url } = await start();
    const v1 = (await (
      await fetch(`${url}/.well-known/agent-card.json`, { headers: { "A2A-Version": "1.0" } })
    ).json()) as {
      securitySchemes: Record<string, { httpAuthSecurityScheme?: { scheme: string } }>;
    };
    expect(v1.securitySchemes.bearer?.httpAuthSecurityScheme?.scheme).toBe("Bearer");
    const v03 = (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as {
      securitySchemes: Record<string, { type: string; scheme: string }>;
    };
    expect(v03.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "Bearer" });
  });

  it("keys each user's thread by their subject: another user's contextId gives a fresh conversation", async () => {
    const { url } = await start();
    const alice = await clientWithToken(url, await token("alice"));
    const bob = await clientWithToken(url, await token("bob"));
    const contextId = `shared-${randomUUID()}`;

    await alice.send("my secret plan", contextId);
    const bobsView = await bob.send("what did I say?", contextId);
    expect(statusText(bobsView)).toBe("I have seen: what did I say?");

    const aliceKey = createHash("sha256").update("alice").digest("hex").slice(0, 16);
    const threads = await mongo.db(dbName).collection("checkpoints_notes").distinct("thread_id");
    expect(threads).toContain(`${aliceKey}:${contextId}`);
    expect(threads).not.toContain(contextId);
  });

  it("never lets another user see or approve a paused confirmation", async () => {
    const { url } = await start();
    const alice = await clientWithToken(url, await token("alice"));
    const bob = await clientWithToken(url, await token("bob"));
    const contextId = `paused-${randomUUID()}`;
    const asked = await alice.send("add note wire the money", contextId);
    expect(stateOf(asked)).toBe("TASK_STATE_INPUT_REQUIRED");

    await expect(bob.getTask(asked.id)).rejects.toThrow(/not found/i);
    await expect(bob.send("yes", contextId, asked.id)).rejects.toThrow(/not found/i);
    const bobsYes = await bob.send("yes", contextId);
    expect(stateOf(bobsYes)).toBe("TASK_STATE_COMPLETED");
    expect(notes).toEqual([]);

    const approved = await alice.send("yes", contextId, asked.id);
    expect(stateOf(approved)).toBe("TASK_STATE_COMPLETED");
    expect(notes).toEqual(["wire the money"]);
  });

  it("deletes only the caller's own conversation", async () => {
    const { url } = await start();
    const aliceToken = await token("alice");
    const bobToken = await token("bob");
    const contextId = `delete-${randomUUID()}`;
    await (await clientWithToken(url, aliceToken)).send("alice's words", contextId);
    await (await clientWithToken(url, bobToken)).send("bob's words", contextId);
    const key = (sub: string) =>
      `${createHash("sha256").update(sub).digest("hex").slice(0, 16)}:${contextId}`;
    const checkpoints = mongo.db(dbName).collection("checkpoints_notes");

    expect((await fetch(`${url}/conversations/${contextId}`, { method: "DELETE" })).status).toBe(401);
    const deleted = await fetch(`${url}/conversations/${contextId}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${bobToken}` },
    });
    expect(await deleted.json()).toMatchObject({ agent: "notes", contextId, tasks: 1 });
    expect(await checkpoints.countDocuments({ thread_id: key("bob") })).toBe(0);
    expect(await checkpoints.countDocuments({ thread_id: key("alice") })).toBeGreaterThan(0);
  });

  it("never writes the token into checkpoints, task stores or logs", async () => {
    const { url } = await start();
    const bearer = await token("carol");
    const carol = await clientWithToken(url, bearer);
    const contextId = `secret-${randomUUID()}`;
    const asked = await carol.send("add note rotate keys", contextId);
    await carol.send("yes", contextId, asked.id);
    const stored = await storedText(mongo.db(dbName));
    expect(stored).toContain("rotate keys");
    expect(stored).not.toContain(bearer);
    expect(logLines.join("")).not.toContain(bearer);
    // The turn, token and all, went to the graph as LangGraph's run context (never its
    // `configurable`, whose values land in checkpoint metadata): the turn's checkpoints and their
    // pending writes were stored, and neither holds the token nor any other part of the turn.
    const db = mongo.db(dbName);
    const checkpoints = (await db.listCollections().toArray())
      .map(({ name }) => name)
      .filter((name) => name.startsWith("checkpoint"));
    expect(checkpoints.length).toBeGreaterThan(0);
    for (const name of checkpoints) {
      const text = JSON.stringify(await db.collection(name).find().toArray(), (_key, value) =>
        value?._bsontype === "Binary" ? Buffer.from(value.buffer).toString("utf8") : value,
      );
      expect(text).not.toContain(bearer);
      expect(text).not.toContain("principal");
    }
    expect(await db.collection("checkpoints_notes").countDocuments()).toBeGreaterThan(0);
  });

  it("verifies RS256 tokens against AUTH_JWKS_URL", async () => {
    const { publicKey, privateKey } = await generateKeyPair("RS256");
    const jwk = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "RS256", use: "sig" };
    const jwks: Server = createServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = jwks.address() as { port: number };
      const { url } = await start({
        AUTH_JWT_SECRET: "",
        AUTH_JWKS_URL: `http://127.0.0.1:${port}/jwks.json`,
      });
      const signed = await new SignJWT({})
        .setProtectedHeader({ alg: "RS256", kid: "test-key" })
        .setSubject("dave")
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(privateKey);
      const dave = await clientWithToken(url, signed);
      const result = await dave.send("hello", `jwks-${randomUUID()}`);
      expect(stateOf(result)).toBe("TASK_STATE_COMPLETED");
    } finally {
      jwks.close();
    }
  });

  it("warns at start-up when it runs without auth beyond loopback, and not on loopback", async () => {
    logLines.length = 0;
    await start({ AUTH_MODE: "none", HOST: "127.0.0.1" });
    expect(logLines.join("")).not.toContain("AUTH_MODE=none");
    await agent?.close();
    await start({ AUTH_MODE: "none", HOST: "0.0.0.0" });
    const warning = logLines
      .map((line) => JSON.parse(line))
      .find((line) => String(line.msg).startsWith("AUTH_MODE=none"));
    expect(warning).toMatchObject({ level: "warn", host: "0.0.0.0" });
    expect(warning.msg).toContain("Set AUTH_MODE=jwt to require tokens");
  });

  it("refuses to start in jwt mode without a key", async () => {
    await expect(start({ AUTH_JWT_SECRET: "" })).rejects.toThrow(
      /AUTH_MODE=jwt needs a key to verify tokens: set AUTH_JWKS_URL/,
    );
  });
});
