import type { LookupAddress } from "node:dns";
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedConnector } from "../src/network/guarded-connector.js";
import type { NetworkGuardRule } from "../src/network/network-guard.js";
import { undici } from "../src/network/undici.js";

const RULE: NetworkGuardRule = { what: "test calls", setting: "TEST_ALLOW_PRIVATE", code: "EPRIVATETEST" };

// A resolver standing in for DNS: names an attacker controls, pointing inside (as after rebinding).
const zone: Record<string, LookupAddress[]> = {
  "rebound.example.com": [{ address: "127.0.0.1", family: 4 }],
  "mapped.example.com": [{ address: "::ffff:127.0.0.1", family: 6 }],
};

describe("guardedConnector: the address is checked when the socket connects", () => {
  let listener: Server;
  let port: number;
  let connections = 0;

  beforeAll(async () => {
    listener = createServer((socket) => {
      connections += 1;
      socket.end("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    port = (listener.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  it("refuses names resolving inside and every IP literal form of loopback, without connecting", async () => {
    const { Agent, fetch } = undici();
    const agent = new Agent({
      connect: guardedConnector(RULE, {
        resolve: (hostname, _options, callback) => callback(null, zone[hostname] ?? []),
      }),
    });
    const hosts = [
      "rebound.example.com",
      "mapped.example.com",
      "127.0.0.1",
      "2130706433", // decimal
      "0x7f.1", // hex, short form
      "0177.0.0.1", // octal
      "127.1",
      "[::ffff:127.0.0.1]",
      "[::ffff:7f00:1]",
      "0.0.0.0",
    ];
    try {
      for (const host of hosts) {
        const refused = await fetch(`http://${host}:${port}/`, { dispatcher: agent }).then(
          () => undefined,
          (error: { cause?: NodeJS.ErrnoException }) => error.cause,
        );
        expect(refused?.code, host).toBe("EPRIVATETEST");
        expect(refused?.message, host).toContain("TEST_ALLOW_PRIVATE=true");
      }
    } finally {
      await agent.close();
    }
    expect(connections).toBe(0);
  });
});
