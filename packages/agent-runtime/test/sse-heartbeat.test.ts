import type { Server } from "node:http";
import { createServer } from "node:http";
import { listenHttp } from "@switchboard/common";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sseHeartbeat } from "../src/http/sse-heartbeat.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("sseHeartbeat", () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    const app = express();
    app.use(sseHeartbeat(40));
    // An answer stream that waits (a slow model, a long tool call) between its events.
    app.get("/stream", async (_req, res) => {
      res.setHeader("content-type", "text/event-stream");
      res.flushHeaders();
      res.write('data: {"n":1}\n\n');
      await sleep(150);
      res.write('data: {"n":2}\n\n');
      res.end();
    });
    app.get("/json", async (_req, res) => {
      res.setHeader("content-type", "application/json");
      res.write("[");
      await sleep(150);
      res.end("]");
    });
    server = createServer(app);
    url = `http://127.0.0.1:${await listenHttp(server, 0, "127.0.0.1")}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("writes comment lines while an event stream is quiet, between whole events", async () => {
    const body = await (await fetch(`${url}/stream`)).text();
    const blocks = body.split("\n\n").filter(Boolean);
    expect(blocks[0]).toBe('data: {"n":1}');
    expect(blocks.at(-1)).toBe('data: {"n":2}');
    const beats = blocks.slice(1, -1);
    expect(beats.length).toBeGreaterThanOrEqual(2);
    expect(new Set(beats)).toEqual(new Set([": keep-alive"]));
  });

  it("leaves other responses alone", async () => {
    expect(await (await fetch(`${url}/json`)).text()).toBe("[]");
  });
});
