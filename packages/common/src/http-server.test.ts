import { createServer } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { KEEP_ALIVE_TIMEOUT_MS, listenHttp } from "./http-server.js";

describe("listenHttp", () => {
  const servers: Array<ReturnType<typeof createServer>> = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  });

  it("tells clients and proxies an idle connection stays open longer than a proxy's 60 s", async () => {
    const server = createServer((_req, res) => res.end("ok"));
    servers.push(server);
    const port = await listenHttp(server, 0, "127.0.0.1");
    const response = await fetch(`http://127.0.0.1:${port}/`);
    expect(await response.text()).toBe("ok");
    expect(response.headers.get("keep-alive")).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
  });

  it("rejects with the bind error when the port is taken", async () => {
    const first = createServer();
    servers.push(first);
    const port = await listenHttp(first, 0, "127.0.0.1");
    await expect(listenHttp(createServer(), port, "127.0.0.1")).rejects.toMatchObject({ code: "EADDRINUSE" });
  });
});
