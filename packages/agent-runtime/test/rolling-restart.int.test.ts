import { randomUUID } from "node:crypto";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { AgentProcess } from "@switchboard-testing/test-agents";
import {
  type ChatCompletionRequest,
  callTool,
  lastUserText,
  recallUserMessages,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNotesProcess } from "./notes-agent.js";

// Two replicas of an agent behind a round-robin proxy that, like a Kubernetes Service, sends
// requests only to replicas whose /ready answers 200. The replicas are restarted one at a time
// (SIGTERM, then a new process) while 20 conversations run turn after turn: no acknowledged turn
// may be lost and no conversation may get stuck.

// biome-ignore lint/suspicious/noExplicitAny: wire JSON
type Json = any;

/**
 * Round-robin over the replicas that are ready; a refused connection or a 503 (nothing taken) tries
 * the next. Like a load balancer with passive health checks, a replica that answers 503 gets nothing
 * more until a probe begun after that finds it ready again.
 */
class ReadyProxy {
  private replicas: AgentProcess[] = [];
  private readonly ready = new Set<AgentProcess>();
  /** When each replica's readiness last changed: a probe begun before then is stale. */
  private readonly changedAt = new Map<AgentProcess, number>();
  private next = 0;
  private readonly poller: NodeJS.Timeout;
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {
    this.poller = setInterval(() => void this.probe(), 100);
  }

  static async start(): Promise<ReadyProxy> {
    let proxy: ReadyProxy | undefined;
    const server = createServer(async (req, res) => {
      let body = Buffer.alloc(0);
      for await (const chunk of req) body = Buffer.concat([body, chunk]);
      const answer = await proxy?.forward(req.method ?? "GET", req.url ?? "/", req.headers, body);
      res.writeHead(answer?.status ?? 502, { "content-type": "application/json" }).end(answer?.body ?? "{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    proxy = new ReadyProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return proxy;
  }

  set(replicas: AgentProcess[]): void {
    this.replicas = replicas;
  }

  private async probe(): Promise<void> {
    await Promise.all(
      this.replicas.map(async (replica) => {
        const begun = performance.now();
        const ok = await fetch(`${replica.url}/ready`).then(
          (response) => response.ok,
          () => false,
        );
        // Probes overlap on a loaded machine: one that began before the last change says nothing new.
        if (begun >= (this.changedAt.get(replica) ?? 0)) this.mark(replica, ok);
      }),
    );
  }

  private mark(replica: AgentProcess, ready: boolean): void {
    if (this.ready.has(replica) === ready) return;
    if (ready) this.ready.add(replica);
    else this.ready.delete(replica);
    this.changedAt.set(replica, performance.now());
  }

  private async forward(
    method: string,
    path: string,
    headers: Record<string, unknown>,
    body: Buffer,
  ): Promise<{ status: number; body: string }> {
    const candidates = this.replicas.filter((replica) => this.ready.has(replica));
    for (let tried = 0; tried < candidates.length; tried++) {
      const replica = candidates[this.next++ % candidates.length] as AgentProcess;
      // Only a request no replica took goes elsewhere: one cut off mid-turn is the client's loss (502).
      const answer = await send(replica.url, method, path, headers, body).catch((error: SendError) =>
        error.code === "ECONNREFUSED" || error.unread
          ? undefined
          : { status: 502, body: JSON.stringify({ error: error.message }) },
      );
      if (answer && answer.status !== 503) return answer;
      this.mark(replica, false);
    }
    return { status: 503, body: JSON.stringify({ error: "no replica is ready" }) };
  }

  async close(): Promise<void> {
    clearInterval(this.poller);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * A failed send. `unread` marks a request the replica never read, which may go to another replica:
 * - on a pooled connection, the race HTTP/1.1 keep-alive leaves open: a request written just as
 *   the replica closed the connection while idle (the end of its drain, if this proxy's poll has
 *   not yet seen it unready). Node's own docs advise sending it again.
 * - on a new connection, a reset (the peer's RST, reported by a read or write) before any answer:
 *   the kernel resets a socket closed with bytes its process never read, so the replica closed
 *   the connection (or its listener, with the connection still in the accept queue) before it
 *   read this request. A replica that read a request answers it, 503 when draining, so a taken
 *   request cut off shows as a hang-up (FIN), not as a reset. Load balancers retry the same cases
 *   (HAProxy's retry-on conn-failure and empty-response).
 */
type SendError = NodeJS.ErrnoException & { unread?: boolean };

function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, unknown>,
  body: Buffer,
): Promise<{ status: number; body: string }> {
  let answered = false;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      new URL(path, base),
      { method, headers: { "content-type": String(headers["content-type"] ?? "application/json") } },
      async (response) => {
        answered = true;
        let text = "";
        for await (const chunk of response) text += chunk;
        resolve({ status: response.statusCode ?? 0, body: text });
      },
    );
    outgoing.on("error", (error: SendError) => {
      const reset = error.code === "ECONNRESET" && (outgoing.reusedSocket || error.syscall !== undefined);
      error.unread = reset && !answered;
      reject(error);
    });
    outgoing.end(body);
  });
}

/** A v0.3 message/send of `text` on the conversation, as JSON-RPC. */
function messageSend(contextId: string, text: string): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id: randomUUID(),
    method: "message/send",
    params: {
      message: {
        kind: "message",
        role: "user",
        messageId: randomUUID(),
        contextId,
        parts: [{ kind: "text", text }],
      },
    },
  });
}

describe("restarting replicas one at a time while conversations run", () => {
  const dbName = uniqueDbName("rolling");
  const CONVERSATIONS = 20;
  const TURNS = 4;
  let llm: ScriptedLlm;
  let proxy: ReadyProxy;
  let replicas: AgentProcess[] = [];

  // Each answer takes a while, so restarts land while turns are running.
  const script = async (request: ChatCompletionRequest) => {
    await sleep(150);
    const text = lastUserText(request) ?? "";
    if (request.messages.at(-1)?.role === "tool") return say("noted");
    if (text.startsWith("recall")) return recallUserMessages()(request);
    if (text.startsWith("stall")) return callTool("slow_notes", {});
    return say("noted");
  };

  const start = (env: Record<string, string> = {}) =>
    startNotesProcess({
      llm,
      dbName,
      env: { THREAD_LEASE_SECONDS: "2", SHUTDOWN_GRACE_SECONDS: "20", ...env },
    });

  beforeAll(async () => {
    llm = await startScriptedLlm({ script });
    proxy = await ReadyProxy.start();
    replicas = [await start(), await start()];
    proxy.set(replicas);
    await sleep(300);
  });
  afterAll(async () => {
    await proxy?.close();
    await Promise.all(replicas.map((replica) => replica.kill("SIGTERM").catch(() => undefined)));
    await llm?.close();
  });

  /** One turn through the proxy, sent again (as a client behind a load balancer would) only when no replica took it. */
  async function turn(contextId: string, text: string): Promise<Json> {
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(`${proxy.url}/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: messageSend(contextId, text),
      });
      if (response.status === 503 && attempt < 50) {
        await sleep(100);
        continue;
      }
      if (!response.ok)
        throw new Error(`${contextId} "${text}": HTTP ${response.status} ${await response.text()}`);
      const reply = (await response.json()) as Json;
      if (reply.error) throw new Error(`${contextId} "${text}": ${JSON.stringify(reply.error)}`);
      return reply.result;
    }
  }

  it("loses no turn and leaves no conversation stuck", async () => {
    const conversations = Array.from({ length: CONVERSATIONS }, () => `rolling-${randomUUID()}`);
    const running = Promise.all(
      conversations.map(async (contextId) => {
        for (let n = 1; n <= TURNS; n++) {
          const result = await turn(contextId, `note ${n} of ${contextId}`);
          expect(result.status?.state, JSON.stringify(result)).toBe("completed");
        }
        return contextId;
      }),
    );

    // The rolling restart: one replica at a time leaves (SIGTERM) and a new one takes its place.
    for (let index = 0; index < replicas.length; index++) {
      await sleep(400);
      const leaving = replicas[index] as AgentProcess;
      await leaving.kill("SIGTERM");
      expect(await leaving.exited).toBe(0);
      const fresh = await start();
      replicas = replicas.map((replica) => (replica === leaving ? fresh : replica));
      proxy.set(replicas);
    }

    const finished = await Promise.race([
      running,
      sleep(90_000).then(() => {
        throw new Error("conversations still running 90 s later: one is stuck");
      }),
    ]);
    expect(finished).toHaveLength(CONVERSATIONS);

    // Every acknowledged turn is in its conversation: the model, asked to recall, is sent all of them.
    for (const contextId of conversations) {
      const recalled = await turn(contextId, "recall");
      const text = JSON.stringify(recalled.status?.message ?? recalled.artifacts);
      for (let n = 1; n <= TURNS; n++) expect(text).toContain(`note ${n} of ${contextId}`);
    }
  });

  it("fails a turn still running when the grace period ends, naming why, and frees its conversation at once", async () => {
    // A long lease: were it not released, the next turn on this conversation would wait 60 s for it.
    const leaving = await start({ SHUTDOWN_GRACE_SECONDS: "1", THREAD_LEASE_SECONDS: "60" });
    const contextId = `grace-${randomUUID()}`;
    const stalled = fetch(`${leaving.url}/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: messageSend(contextId, "stall"),
    }).then(async (response) => ({
      connection: response.headers.get("connection"),
      body: (await response.json()) as Json,
    }));
    await sleep(500);
    await leaving.kill("SIGTERM");
    const { connection, body: reply } = await stalled;
    // Answered during the drain, its connection closes with it: none is left idle to be cut later.
    expect(connection).toBe("close");
    expect(reply.result?.status?.state, JSON.stringify(reply)).toBe("failed");
    expect(JSON.stringify(reply.result.status.message)).toContain("shut down before the turn finished");
    const next = await Promise.race([
      turn(contextId, "note after the restart"),
      sleep(30_000).then(() => {
        throw new Error("the conversation is still held by the replica that left");
      }),
    ]);
    expect(next.status?.state).toBe("completed");
  });
});
