import { randomUUID } from "node:crypto";
import { lookup } from "node:dns/promises";
import { createServer, type Server } from "node:http";
import { createServer as createTcpServer, type Server as TcpServer } from "node:net";
import { hostname } from "node:os";
import { join } from "node:path";
import { type AgentProcess, startAgentProcess } from "@switchboard-testing/test-agents";
import { type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const jiraDir = join(import.meta.dirname, "../node_modules/@switchboard/agent-jira");

// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC answers of many shapes
type Json = any;

function listen(server: Server | TcpServer): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port));
  });
}

async function rpc(agent: AgentProcess, method: string, params: unknown): Promise<Json> {
  const response = await fetch(`${agent.url}/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: randomUUID(), method, params }),
  });
  return response.json();
}

const message = () => ({
  kind: "message",
  role: "user",
  messageId: randomUUID(),
  contextId: `hook-${randomUUID()}`,
  parts: [{ kind: "text", text: "hi" }],
});

/** Resolves once the agent has logged its verdict on delivering to the task's webhook. */
async function deliveryVerdict(agent: AgentProcess, taskId: string, timeoutMs = 60_000): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = agent
      .logs()
      .split("\n")
      .filter((text) => text.includes(taskId) && text.includes("push notification"))
      .map((text) => JSON.parse(text.slice(text.indexOf("{"))))
      .find((entry) => /could not deliver|delivered/.test(entry.msg));
    if (line) return line;
    if (Date.now() > deadline)
      throw new Error(`no delivery verdict for ${taskId}:\n${agent.logs().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A webhook owner tries to make an agent deliver a task's updates (and the webhook's token)
 * somewhere the agent can reach and they cannot: by redirecting, by naming a host that resolves to
 * loopback, by writing loopback in forms a URL check may miss. The attacker's listener is a raw TCP
 * socket: any connection at all is counted.
 */
describe("push webhooks reach only where they were registered, and only public addresses", () => {
  const dbName = uniqueDbName("adv-hooks");
  let llm: ScriptedLlm;
  let open: AgentProcess; // PUSH_NOTIFICATIONS_ALLOW_PRIVATE_NETWORKS=true: the redirecting webhook is on loopback
  let guarded: AgentProcess; // the default: public addresses only
  let webhook: Server;
  let attacker: TcpServer;
  let attackerPort: number;
  let webhookUrl: string;
  let attackerConnections = 0;
  const webhookSaw: string[] = [];

  beforeAll(async () => {
    llm = await startScriptedLlm({ script: () => say("done") });
    attacker = createTcpServer((socket) => {
      attackerConnections += 1;
      socket.destroy();
    });
    attackerPort = await listen(attacker);
    webhook = createServer((req, res) => {
      webhookSaw.push(req.url ?? "");
      const status = Number(new URL(req.url ?? "/", "http://x").searchParams.get("status") ?? 307);
      res.writeHead(status, { location: `http://127.0.0.1:${attackerPort}/steal` }).end();
    });
    webhookUrl = `http://127.0.0.1:${await listen(webhook)}/hook`;
    const env = { ...testMongoEnv(dbName), ...llm.env };
    [open, guarded] = await Promise.all([
      startAgentProcess(jiraDir, { env: { ...env, PUSH_NOTIFICATIONS_ALLOW_PRIVATE_NETWORKS: "true" } }),
      startAgentProcess(jiraDir, { env }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([open?.kill("SIGTERM"), guarded?.kill("SIGTERM")]);
    await Promise.all([
      new Promise((done) => webhook?.close(done)),
      new Promise((done) => attacker?.close(done)),
      llm?.close(),
    ]);
  });

  it.each([307, 308, 302, 301, 303])(
    "a webhook answering %i to the attacker's listener: not followed, the token never leaves, logged as failed",
    async (status) => {
      const reply = await rpc(open, "message/send", {
        message: message(),
        configuration: {
          pushNotificationConfig: {
            url: `${webhookUrl}?status=${status}&access_token=query-s3cret`,
            token: "hook-token-s3cret",
          },
        },
      });
      const taskId = reply.result?.id;
      expect(taskId, JSON.stringify(reply)).toBeTypeOf("string");
      const verdict = await deliveryVerdict(open, taskId);
      expect(verdict.msg).toMatch(/could not deliver a push notification/);
      expect(verdict.reason).toContain(`HTTP ${status} (a redirect): not followed`);
      expect(webhookSaw.length).toBeGreaterThan(0);
      expect(attackerConnections).toBe(0);
      expect(open.logs()).not.toContain("hook-token-s3cret");
      expect(open.logs(), "a webhook's query is never logged").not.toContain("query-s3cret");
    },
  );

  it("a host name that resolves to loopback is accepted as a name but never connected to", async () => {
    // The machine's own name resolves to loopback on test machines (/etc/hosts); check, not assume.
    const name = hostname();
    const resolved = await lookup(name, { all: true }).catch(() => []);
    expect(resolved.length, `${name} must resolve for this test`).toBeGreaterThan(0);
    expect(
      resolved.every(({ address }) => address.startsWith("127.") || address === "::1"),
      name,
    ).toBe(true);
    const reply = await rpc(guarded, "message/send", {
      message: message(),
      configuration: {
        pushNotificationConfig: { url: `http://${name}:${attackerPort}/steal`, token: "hook-token-s3cret" },
      },
    });
    const taskId = reply.result?.id;
    expect(taskId, JSON.stringify(reply)).toBeTypeOf("string");
    const verdict = await deliveryVerdict(guarded, taskId);
    expect(verdict.reason).toMatch(/resolves only to loopback, link-local or private addresses/);
    expect(verdict.reason).toContain("PUSH_NOTIFICATIONS_ALLOW_PRIVATE_NETWORKS=true");
    expect(attackerConnections).toBe(0);
  });

  it("loopback written as decimal, octal, hex, short or IPv4-mapped IPv6 is refused when set, storing nothing", async () => {
    const forms = [
      `http://2130706433:${attackerPort}/x`,
      `http://0177.0.0.1:${attackerPort}/x`,
      `http://0x7f.0.0.1:${attackerPort}/x`,
      `http://127.1:${attackerPort}/x`,
      `http://0:${attackerPort}/x`,
      `http://[::ffff:127.0.0.1]:${attackerPort}/x`,
      `http://[0:0:0:0:0:ffff:7f00:1]:${attackerPort}/x`,
      `http://[::]:${attackerPort}/x`,
      `http://169.254.169.254.:${attackerPort}/x`,
    ];
    for (const url of forms) {
      const reply = await rpc(guarded, "message/send", {
        message: message(),
        configuration: { pushNotificationConfig: { url, token: "hook-token-s3cret" } },
      });
      expect(reply.error?.code, `${url}: ${JSON.stringify(reply)}`).toBe(-32602);
      expect(reply.error.message, url).toContain("PUSH_NOTIFICATIONS_ALLOW_PRIVATE_NETWORKS=true");
    }
    expect(attackerConnections).toBe(0);
  });
});
