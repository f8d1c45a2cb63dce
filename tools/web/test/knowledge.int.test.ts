import { join } from "node:path";
import { type AgentProcess, freePort, startAgentProcess } from "@switchboard-testing/test-agents";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { raw, startRecordingUpstream } from "./recording-upstream.js";

const packageDir = join(import.meta.dirname, "..");

/**
 * The web server forwards the Sources page's calls to the RAG server (ENABLE_RAG, RAG_SERVER_URL) as
 * it forwards the supervisor's routes: the caller's token goes on, cookies do not, only the page's
 * routes and methods pass, and no path leaves the configured origin. Behind it, a recording HTTP
 * server stands in for the RAG server (what it answers is the browser test's, testing/web-e2e).
 */
describe("the web server and the knowledge base's RAG server (ENABLE_RAG, RAG_SERVER_URL)", () => {
  let rag: Awaited<ReturnType<typeof startRecordingUpstream>>;
  let web: AgentProcess;
  let off: AgentProcess;
  let seen: Awaited<ReturnType<typeof startRecordingUpstream>>["seen"];

  beforeAll(async () => {
    rag = await startRecordingUpstream('{"datasources":[]}');
    seen = rag.seen;
    const supervisor = `http://127.0.0.1:${await freePort()}`;
    [web, off] = await Promise.all([
      startAgentProcess(packageDir, {
        env: {
          SWITCHBOARD_URL: supervisor,
          ENABLE_RAG: "true",
          // A path on the URL is kept: the server may sit below a prefix.
          RAG_SERVER_URL: `http://127.0.0.1:${rag.port}/rag`,
        },
      }),
      startAgentProcess(packageDir, { env: { SWITCHBOARD_URL: supervisor, ENABLE_RAG: "false" } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([web?.kill("SIGTERM"), off?.kill("SIGTERM")]);
    await rag?.close();
  });

  it("tells the page there is a knowledge base, and sends list, sync and upload on with the caller's token, never their cookies", async () => {
    expect(await (await fetch(`${web.url}/config.json`)).json()).toMatchObject({ knowledge: true });
    const form = new FormData();
    form.append("file", new File(["# Runbook\n\nRestart it."], "runbook.md", { type: "text/markdown" }));
    const calls: Array<[string, string, FormData?]> = [
      ["GET", "/v1/datasources"],
      ["POST", "/v1/datasources/handbook/sync"],
      ["POST", "/v1/datasources/uploads/documents", form],
    ];
    for (const [method, path, body] of calls) {
      const answer = await fetch(`${web.url}/api/rag${path}`, {
        method,
        headers: { authorization: "Bearer alice-token", cookie: "session=secret" },
        ...(body ? { body } : {}),
      });
      expect(answer.status, path).toBe(200);
    }
    expect(
      seen.map(({ method, url, authorization, cookie }) => ({ method, url, authorization, cookie })),
    ).toEqual(
      calls.map(([method, path]) => ({
        method,
        url: `/rag${path}`,
        authorization: "Bearer alice-token",
        cookie: undefined,
      })),
    );
    // The file reaches the RAG server whole, as the multipart form the browser made.
    const upload = seen.at(-1);
    expect(upload?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload?.body).toContain('filename="runbook.md"');
    expect(upload?.body).toContain("# Runbook\n\nRestart it.");
  });

  it("refuses other methods, other RAG server routes and paths that could leave it, unsent", async () => {
    const before = seen.length;
    for (const [method, path, status] of [
      ["DELETE", "/api/rag/v1/datasources", 405],
      ["GET", "/api/rag/v1/datasources/handbook/sync", 405],
      ["PUT", "/api/rag/v1/datasources/uploads/documents", 405],
      // CAIPE's RAG server has more (queries, deletions, ingest jobs): the page uses none of them.
      ["POST", "/api/rag/v1/query", 404],
      ["DELETE", "/api/rag/v1/datasource", 404],
      ["GET", "/api/rag/mcp", 404],
      ["POST", "/api/rag/v1/datasources/..%2f..%2fadmin/sync", 400],
      ["POST", "/api/rag/v1/datasources/%2F%2F10.0.0.5/sync", 400],
      ["POST", "/api/rag/v1/datasources/a@10.0.0.5/sync", 400],
      ["POST", "/api/rag/v1/datasources/x/../../../v1/query/sync", 404],
    ] as const) {
      expect(await raw(web.url, method, path), `${method} ${path}`).toBe(status);
    }
    expect(seen.length).toBe(before);
  });

  it("without ENABLE_RAG: no Sources page offered, and every call says how to turn the knowledge base on", async () => {
    expect(await (await fetch(`${off.url}/config.json`)).json()).toEqual({ signIn: { mode: "none" } });
    const answer = await fetch(`${off.url}/api/rag/v1/datasources`);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({
      code: "rag_off",
      error:
        "The knowledge base is off on this web chat: set ENABLE_RAG=true and RAG_SERVER_URL (e.g. http://localhost:9446) on the web server and restart it.",
    });
  });

  it("says the RAG server is unreachable, where and what to set, when it is down", async () => {
    const { port } = rag;
    rag.server.closeAllConnections();
    await rag.close();
    const answer = await fetch(`${web.url}/api/rag/v1/datasources`);
    expect(answer.status).toBe(502);
    expect(await answer.json()).toEqual({
      error: `Cannot reach the RAG server at http://127.0.0.1:${port} (ECONNREFUSED). Start it (npm start runs it with ENABLE_RAG=true) or set RAG_SERVER_URL on the web server.`,
    });
  });
});
