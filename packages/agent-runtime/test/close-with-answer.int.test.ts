import { once } from "node:events";
import { Agent, createServer, get, type IncomingMessage } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeWithAnswer } from "../src/http/close-with-answer.js";

// A draining agent marks each open response with closeWithAnswer; the connection must end with the
// answer even on a keep-alive client, whether its headers were still unsent or already streaming.
describe("closeWithAnswer", () => {
  const server = createServer((req, res) => {
    if (req.url === "/streaming") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: first\n\n");
    }
    setTimeout(() => {
      closeWithAnswer(res);
      res.end("data: last\n\n");
    }, 100);
  });
  const agent = new Agent({ keepAlive: true });
  let url = "";

  beforeAll(async () => {
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    agent.destroy();
    server.close();
    server.closeAllConnections();
  });

  /** The answer, its connection header, and whether the server closed the socket within 2 s of it. */
  async function answer(path: string) {
    const response: IncomingMessage = await new Promise((resolve, reject) =>
      get(`${url}${path}`, { agent }, resolve).on("error", reject),
    );
    const socket = response.socket as Socket;
    const closed = once(socket, "close").then(() => true);
    let body = "";
    for await (const chunk of response) body += chunk;
    const closedAfter = await Promise.race([closed, sleep(2_000).then(() => false)]);
    return { body, connection: response.headers.connection, closedAfter };
  }

  it("ends a streaming answer's keep-alive connection once the answer ends", async () => {
    const streamed = await answer("/streaming");
    expect(streamed).toEqual({
      body: "data: first\n\ndata: last\n\n",
      connection: "keep-alive",
      closedAfter: true,
    });
  });

  it("answers a response whose headers were unsent with connection: close", async () => {
    expect(await answer("/blocking")).toEqual({
      body: "data: last\n\n",
      connection: "close",
      closedAfter: true,
    });
  });
});
