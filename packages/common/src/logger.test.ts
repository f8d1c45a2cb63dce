import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, getLogger } from "./logger.js";

function capture(): { stream: Writable; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const lines = () =>
    chunks
      .join("")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { stream, lines };
}

describe("createLogger", () => {
  it("writes JSON lines with the level's name, an ISO time and the base fields", () => {
    const { stream, lines } = capture();
    const logger = createLogger({ level: "info", base: { agent: "jira" }, destination: stream });
    logger.child({ contextId: "c1" }).info({ n: 1 }, "hello");
    logger.debug("not written");
    const [line] = lines();
    expect(lines()).toHaveLength(1);
    expect(line).toMatchObject({ level: "info", agent: "jira", contextId: "c1", n: 1, msg: "hello" });
    expect(new Date(String(line?.time)).toISOString()).toBe(line?.time);
  });

  it("never writes a password, token, API key or authorization header", () => {
    const { stream, lines } = capture();
    const logger = createLogger({ level: "info", destination: stream });
    logger.info({
      password: "p4ss",
      token: "t0k",
      settings: { apiKey: "k3y" },
      req: { headers: { authorization: "Bearer abc", cookie: "session=1" } },
    });
    const text = JSON.stringify(lines());
    for (const secret of ["p4ss", "t0k", "k3y", "Bearer abc", "session=1"])
      expect(text).not.toContain(secret);
    expect(lines()[0]).toMatchObject({ password: "[redacted]", settings: { apiKey: "[redacted]" } });
  });

  it("masks a URL's password and secret query wherever the URL is: message, field, error", () => {
    const { stream, lines } = capture();
    const logger = createLogger({ level: "info", destination: stream });
    logger.info({ settings: { LANGGRAPH_STORE_REDIS_URL: "redis://:hunter2@cache:6379" } }, "started");
    logger.warn("cannot reach https://bot:hunter2@hooks.example.com/x?access_token=hunter3");
    logger.error({ err: new Error("connect ECONNREFUSED amqp://u:hunter2@mq:5672") }, "failed");
    const written = JSON.stringify(lines());
    expect(written).not.toMatch(/hunter[23]/);
    expect(written).toContain("redis://:****@cache:6379");
    expect(written).toContain("https://bot:****@hooks.example.com/x?access_token=****");
    expect(written).toContain("amqp://u:****@mq:5672");
  });

  it("getLogger returns one process-wide logger", () => {
    expect(getLogger()).toBe(getLogger());
  });
});
