import { once } from "node:events";
import { request } from "node:http";
import { createServer, type Server } from "node:net";
import { Agent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  headerOf,
  httpStatusOf,
  MAX_RETRY_AFTER_MS,
  networkFailureOf,
  retryAfterMs,
  retryAfterMsOf,
} from "./failure.js";
import { sleep } from "./sleep.js";

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, "close");
  return port;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("the network failure beneath an error", () => {
  let closed: number;
  /** Accepts a connection and closes it at once, before any answer. */
  let hangingUp: Server;
  /** Accepts a connection and never answers. */
  let silent: Server;
  const port = (server: Server) => (server.address() as { port: number }).port;

  beforeAll(async () => {
    closed = await closedPort();
    hangingUp = createServer((socket) => socket.destroy()).listen(0, "127.0.0.1");
    silent = createServer(() => {}).listen(0, "127.0.0.1");
    await Promise.all([once(hangingUp, "listening"), once(silent, "listening")]);
  });
  afterAll(() => {
    hangingUp.close();
    silent.close();
  });

  it("reads fetch's `TypeError: fetch failed` against a closed port through its cause", async () => {
    const error = await rejection(fetch(`http://127.0.0.1:${closed}/`));
    expect(error).toBeInstanceOf(TypeError);
    expect(networkFailureOf(error)).toEqual({ code: "ECONNREFUSED", timedOut: false });
    expect(httpStatusOf(error)).toBeUndefined();
  });

  it("reads Node's http error, and one an SDK keeps as `original` (axios in Slack's client)", async () => {
    const req = request(`http://127.0.0.1:${closed}/`);
    req.end();
    const [error] = await once(req, "error");
    expect(networkFailureOf(error)).toEqual({ code: "ECONNREFUSED", timedOut: false });
    const slack = Object.assign(new Error("A request error occurred"), {
      code: "slack_webapi_request_error",
      original: error,
    });
    expect(networkFailureOf(slack)).toEqual({ code: "ECONNREFUSED", timedOut: false });
  });

  it("reads undici's own codes: a socket closed before the answer, and a wait for headers that ran out", async () => {
    const closedEarly = await rejection(fetch(`http://127.0.0.1:${port(hangingUp)}/`));
    expect(networkFailureOf(closedEarly)).toEqual({ code: "UND_ERR_SOCKET", timedOut: false });
    const dispatcher = new Agent({ headersTimeout: 50 });
    try {
      const noAnswer = await rejection(undiciFetch(`http://127.0.0.1:${port(silent)}/`, { dispatcher }));
      expect(networkFailureOf(noAnswer)).toEqual({ code: "UND_ERR_HEADERS_TIMEOUT", timedOut: true });
    } finally {
      await dispatcher.close();
    }
  });

  it("reads the first of an AggregateError's errors (every address of a name refused)", () => {
    const refused = (address: string) =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: "ECONNREFUSED" });
    const all = new AggregateError([refused("::1:80"), refused("127.0.0.1:80")]);
    expect(networkFailureOf(new TypeError("fetch failed", { cause: all }))?.code).toBe("ECONNREFUSED");
  });

  it("is nothing for an error that is not a network failure, and survives a cause that loops", () => {
    expect(networkFailureOf(new Error("boom"))).toBeUndefined();
    expect(networkFailureOf(Object.assign(new Error("x"), { code: "ERR_INVALID_ARG_TYPE" }))).toBeUndefined();
    expect(networkFailureOf("ECONNREFUSED")).toBeUndefined();
    const looping = new Error("a");
    looping.cause = looping;
    expect(networkFailureOf(looping)).toBeUndefined();
    expect(httpStatusOf(looping)).toBeUndefined();
  });
});

describe("the HTTP status an error carries", () => {
  /** Errors built as each SDK builds them (field names and placement from their classes). */
  const openAi = Object.assign(new Error("429 Rate limit reached"), {
    status: 429,
    headers: new Headers({ "retry-after-ms": "1500", "retry-after": "2" }),
  });
  const cases: [string, unknown, number][] = [
    ["fetch's Response", new Response(null, { status: 503 }), 503],
    ["OpenAI and Anthropic: status", openAi, 429],
    [
      "confluence.js, Node's http: statusCode",
      Object.assign(new Error("Unauthorized"), { statusCode: 401 }),
      401,
    ],
    [
      "Ollama's ResponseError: status_code",
      Object.assign(new Error("model not found"), { status_code: 404 }),
      404,
    ],
    [
      "axios, Octokit: response.status",
      Object.assign(new Error("Forbidden"), { response: new Response(null, { status: 403 }) }),
      403,
    ],
    ["a response's statusCode", { response: { statusCode: 502 } }, 502],
    [
      "the AWS SDK: $metadata.httpStatusCode",
      Object.assign(new Error("Rate exceeded"), {
        name: "ThrottlingException",
        $metadata: { httpStatusCode: 400 },
      }),
      400,
    ],
    ["Backstage's ResponseError: body.response.statusCode", { body: { response: { statusCode: 409 } } }, 409],
    ["a cause beneath a wrapper (LangChain)", new Error("model call failed", { cause: openAi }), 429],
    ["a cause's response", new Error("call failed", { cause: { response: { status: 500 } } }), 500],
  ];

  it.each(cases)("%s", (_shape, error, status) => {
    expect(httpStatusOf(error)).toBe(status);
  });

  it("takes the nearest status, and only a number an HTTP status can be", () => {
    expect(httpStatusOf(new Error("outer", { cause: openAi }))).toBe(429);
    expect(httpStatusOf(Object.assign(new Error("x", { cause: openAi }), { status: 401 }))).toBe(401);
    expect(httpStatusOf({ status: 0 })).toBeUndefined(); // Octokit's "no answer"
    expect(httpStatusOf({ status: "500" })).toBeUndefined();
    expect(httpStatusOf({ status: 42, statusCode: 418 })).toBe(418);
    expect(httpStatusOf({ status: { state: "failed" } })).toBeUndefined(); // an A2A task's status
    expect(httpStatusOf(undefined)).toBeUndefined();
  });
});

describe("how long the other side asked to wait", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");

  it("reads seconds or an HTTP date, in milliseconds", () => {
    expect(retryAfterMs("30", { now })).toBe(30_000);
    expect(retryAfterMs(" 1.5 ", { now })).toBe(1_500);
    expect(retryAfterMs("0", { now })).toBe(0);
    expect(retryAfterMs("Thu, 01 Jan 2026 00:01:00 GMT", { now })).toBe(60_000);
    expect(retryAfterMs(new Date(now - 5_000).toUTCString(), { now })).toBe(0); // a date gone by
  });

  it("is no wait for a value that is neither", () => {
    for (const value of [undefined, "", "  ", "soon", "-1", "0x10", "1e3"]) {
      expect(retryAfterMs(value, { now })).toBeUndefined();
    }
  });

  it("caps a wait at a day, or at what the caller allows", () => {
    expect(retryAfterMs("99999999999", { now })).toBe(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs("Fri, 01 Jan 2100 00:00:00 GMT", { now })).toBe(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs("30", { now, maxMs: 2_000 })).toBe(2_000);
  });

  it("reads the headers an error carries, retry-after-ms first", () => {
    const openAi = Object.assign(new Error("429"), {
      status: 429,
      headers: new Headers({ "retry-after-ms": "1500", "retry-after": "2" }),
    });
    expect(retryAfterMsOf(openAi)).toBe(1_500);
    const octokit = Object.assign(new Error("403"), {
      response: { status: 403, headers: { "Retry-After": "7" } },
    });
    expect(retryAfterMsOf(octokit)).toBe(7_000);
    const aws = { $metadata: { httpStatusCode: 503 }, $response: { headers: { "retry-after": "4" } } };
    expect(retryAfterMsOf(aws)).toBe(4_000);
    const wrapped = new Error("outer", {
      cause: { response: new Response(null, { headers: { "Retry-After": "3" } }) },
    });
    expect(retryAfterMsOf(wrapped)).toBe(3_000);
    expect(retryAfterMsOf(Object.assign(new Error("x"), { headers: new Headers() }))).toBeUndefined();
    expect(retryAfterMsOf(new Error("no headers"))).toBeUndefined();
  });

  it("finds a header case-insensitively in Headers, plain objects and arrays of values", () => {
    expect(headerOf(new Headers({ "Retry-After": "5" }), "retry-after")).toBe("5");
    expect(headerOf({ "RETRY-AFTER": "6" }, "Retry-After")).toBe("6");
    expect(headerOf({ "retry-after": ["8", "9"] }, "retry-after")).toBe("8");
    expect(headerOf({ "retry-after": undefined }, "retry-after")).toBeUndefined();
    expect(headerOf(undefined, "retry-after")).toBeUndefined();
  });
});

describe("the abortable sleep", () => {
  it("resolves after the time", async () => {
    const started = performance.now();
    await sleep(20);
    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
  });

  it("rejects with the signal's reason when it aborts, or has", async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    const reason = new Error("the call ended");
    controller.abort(reason);
    expect(await rejection(waiting)).toBe(reason);
    expect(await rejection(sleep(60_000, controller.signal))).toBe(reason);
  });

  it("ends with a timed-out signal as a TimeoutError", async () => {
    const error = await rejection(sleep(60_000, AbortSignal.timeout(10)));
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe("TimeoutError");
  });
});
