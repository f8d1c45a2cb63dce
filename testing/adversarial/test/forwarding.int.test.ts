import { createServer, request, type Server } from "node:http";
import { createServer as createTcpServer, type Server as TcpServer } from "node:net";
import { join } from "node:path";
import { type AgentProcess, startAgentProcess } from "@switchboard-testing/test-agents";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const webDir = join(import.meta.dirname, "../node_modules/@switchboard/web");

/** A request sent exactly as written (fetch would normalise `..` and such before sending). */
function rawGet(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const sent = request({
      hostname,
      port,
      path,
      method: "GET",
      headers: { authorization: "Bearer victim-jwt", ...headers },
    });
    sent.on("response", (answer) => {
      let body = "";
      answer.setEncoding("utf8");
      answer.on("data", (chunk: string) => {
        body += chunk;
      });
      answer.on("end", () => resolve({ status: answer.statusCode ?? 0, body }));
    });
    sent.on("error", reject);
    sent.end();
  });
}

function listen<S extends Server | TcpServer>(server: S): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port));
  });
}

/**
 * An attacker asks the web chat's server (no sign-in) to forward to a host of their choosing: the
 * request must go to the configured supervisor or nowhere. The attacker's listener is a raw TCP
 * socket on another loopback port, so even a connection without a request would be noticed.
 */
describe("the web chat's proxy keeps its origin", () => {
  let web: AgentProcess;
  let supervisor: Server;
  let attacker: TcpServer;
  let attackerPort: number;
  const supervisorSaw: Array<{ url: string; authorization?: string }> = [];
  let attackerConnections = 0;

  beforeAll(async () => {
    supervisor = createServer((req, res) => {
      supervisorSaw.push({
        url: req.url ?? "",
        ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
      });
      res.writeHead(200, { "content-type": "application/json" }).end('{"from":"supervisor"}');
    });
    attacker = createTcpServer((socket) => {
      attackerConnections += 1;
      socket.end('HTTP/1.1 200 OK\r\ncontent-length: 22\r\n\r\n{"from":"attacker"}   ');
    });
    const [supervisorPort, port] = await Promise.all([listen(supervisor), listen(attacker)]);
    attackerPort = port;
    web = await startAgentProcess(webDir, {
      env: {
        SWITCHBOARD_URL: `http://127.0.0.1:${supervisorPort}`,
        SLACK_BOT_URL: `http://127.0.0.1:${supervisorPort}`,
      },
    });
  });
  afterAll(async () => {
    await web?.kill("SIGTERM");
    await new Promise((done) => supervisor?.close(done));
    await new Promise((done) => attacker?.close(done));
  });

  it("forwards an ordinary path to the configured supervisor, with the caller's Authorization", async () => {
    const answer = await rawGet(web.url, "/a2a/v1/tasks?x=1");
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ from: "supervisor" });
    expect(supervisorSaw.at(-1)).toEqual({ url: "/v1/tasks?x=1", authorization: "Bearer victim-jwt" });
  });

  it("answers 400 to every path that would leave the origin, and the attacker's listener hears nothing", async () => {
    const target = `127.0.0.1:${attackerPort}`;
    const attacks = [
      `/a2a//${target}/x`, // the issue's protocol-relative path
      `/a2a///${target}/x`,
      `/a2a/\\\\${target}/x`,
      `/a2a/\\${target}/x`,
      `/a2a/%2f%2f${target}/x`,
      `/a2a/%5C%5C${target}/x`,
      `/a2a/..//${target}/x`,
      `/a2a/%2e%2e/%2e%2e/x`,
      `/a2a/@${target}/x`,
      `/a2a/x@${target}`,
      `/api/conversations/..%2f..%2f${target}`,
      `/api/conversations/%2F%2F${target}`,
      `/slack/link//${target}/x`,
      `/slack/link/a/..//${target}`,
    ];
    const seenBefore = supervisorSaw.length;
    for (const path of attacks) {
      const answer = await rawGet(web.url, path);
      expect(answer.status, path).toBe(400);
      expect(answer.body, path).not.toContain("attacker");
    }
    expect(attackerConnections).toBe(0);
    expect(supervisorSaw.length).toBe(seenBefore);
  });

  it("never lets an absolute-form request target pick the host", async () => {
    // HTTP/1.1 allows `GET http://host/path`: the server must not take its host as the upstream.
    for (const path of [
      `http://${`127.0.0.1:${attackerPort}`}/a2a/x`,
      `http://127.0.0.1:${attackerPort}//x`,
    ]) {
      const answer = await rawGet(web.url, path);
      expect(answer.body, path).not.toContain("attacker");
    }
    expect(attackerConnections).toBe(0);
  });

  it("takes the upstream from configuration, never from Host or X-Forwarded-Host", async () => {
    const target = `127.0.0.1:${attackerPort}`;
    for (const path of ["/a2a/v1/card", "/.well-known/agent-card.json", "/api/subagents"]) {
      await rawGet(web.url, path, { host: target, "x-forwarded-host": target, forwarded: `host=${target}` });
    }
    expect(attackerConnections).toBe(0);
  });
});
