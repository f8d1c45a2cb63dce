import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type AgentProcess, freePort, startAgentProcess } from "@switchboard-testing/test-agents";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { raw, startRecordingUpstream } from "./recording-upstream.js";

const packageDir = join(import.meta.dirname, "..");

/**
 * The web server forwards CAIPE's agent API to DYNAMIC_AGENTS_URL as it forwards the supervisor's
 * routes: the caller's token goes on, cookies do not, only the page's methods pass, and no path
 * leaves the configured origin. Behind it, a recording HTTP server stands in for the host (what it
 * answers is not under test here; the page's test drives the API's answers).
 */
describe("the web server forwards the agent API to the dynamic-agents host (DYNAMIC_AGENTS_URL)", () => {
  let upstream: Awaited<ReturnType<typeof startRecordingUpstream>>;
  let host: Server;
  let web: AgentProcess;
  let seen: Awaited<ReturnType<typeof startRecordingUpstream>>["seen"];

  beforeAll(async () => {
    upstream = await startRecordingUpstream('{"success":true,"data":{"from":"host"}}');
    ({ server: host, seen } = upstream);
    web = await startAgentProcess(packageDir, {
      env: {
        SWITCHBOARD_URL: `http://127.0.0.1:${await freePort()}`,
        // A path on the URL is kept: the host may sit below a prefix.
        DYNAMIC_AGENTS_URL: `http://127.0.0.1:${upstream.port}/dynamic`,
      },
    });
  });
  afterAll(async () => {
    await web?.kill("SIGTERM");
    await upstream?.close();
  });

  it("sends list, create, update, delete and the catalogs on with the caller's token, never their cookies", async () => {
    const calls: Array<[string, string, string?]> = [
      ["GET", "/api/v1/agents?page=1&limit=100"],
      ["POST", "/api/v1/agents", '{"id":"helper","name":"Helper"}'],
      ["PATCH", "/api/v1/agents/helper", '{"name":"Helper 2"}'],
      ["DELETE", "/api/v1/agents/helper"],
      ["GET", "/api/v1/mcp-servers"],
      ["GET", "/api/v1/llm-models"],
    ];
    for (const [method, path, body] of calls) {
      const answer = await fetch(`${web.url}${path}`, {
        method,
        headers: {
          authorization: "Bearer alice-token",
          cookie: "session=secret",
          ...(body ? { "content-type": "application/json" } : {}),
        },
        ...(body ? { body } : {}),
      });
      expect(answer.status, path).toBe(200);
      expect(await answer.json()).toEqual({ success: true, data: { from: "host" } });
    }
    // What the host received, as sent (its content type is the forward's business, not asserted here).
    expect(seen.map(({ contentType: _, ...request }) => request)).toEqual(
      calls.map(([method, path, body]) => ({
        method,
        url: `/dynamic${path}`,
        authorization: "Bearer alice-token",
        body: body ?? "",
      })),
    );
  });

  it("refuses the methods the page does not use, and paths that could leave the host, unsent", async () => {
    const before = seen.length;
    for (const [method, path, status] of [
      ["PUT", "/api/v1/agents/helper", 405],
      ["DELETE", "/api/v1/agents", 405],
      ["POST", "/api/v1/mcp-servers", 405],
      ["DELETE", "/api/v1/llm-models", 405],
      ["GET", "/api/v1/agents/..%2f..%2fadmin", 400],
      ["GET", "/api/v1/agents/%2F%2F10.0.0.5", 400],
      ["DELETE", "/api/v1/agents/a@10.0.0.5", 400],
      ["GET", "/api/v1/agents/helper/../../../admin", 404],
      ["GET", "/api/v1/conversations/x/messages", 404],
    ] as const) {
      expect(await raw(web.url, method, path), `${method} ${path}`).toBe(status);
    }
    expect(seen.length).toBe(before);
  });

  it("says the host is unreachable, where and what to set, when it is down", async () => {
    const port = (host.address() as AddressInfo).port;
    host.closeAllConnections();
    await new Promise((done) => host.close(done));
    const answer = await fetch(`${web.url}/api/v1/agents`);
    expect(answer.status).toBe(502);
    expect(await answer.json()).toEqual({
      error: `Cannot reach the dynamic-agents host at http://127.0.0.1:${port} (ECONNREFUSED). Start it (npm start runs it) or set DYNAMIC_AGENTS_URL on the web server.`,
    });
  });
});
