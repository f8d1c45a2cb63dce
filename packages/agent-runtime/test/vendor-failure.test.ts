import { SwitchboardError } from "@switchboard/common";
import { describe, expect, it } from "vitest";
import { describeFailure, type FailureNames } from "../src/vendor-client/describe.js";
import { classifyFailure, mergeFailure, messageOf } from "../src/vendor-client/failure.js";
import { HttpStatusError } from "../src/vendor-client/http-json.js";

const names: FailureNames = {
  vendor: "Jira",
  code: "jira",
  url: "https://acme.atlassian.net",
  credentials: "ATLASSIAN_EMAIL and ATLASSIAN_TOKEN",
  address: "ATLASSIAN_API_URL",
};

function refused(status: number, headers: Record<string, string> = {}, detail?: string) {
  return new HttpStatusError(status, new Headers(headers), detail, "GET /rest/api/3/issue/PLAT-1");
}

describe("reading what a vendor's client threw", () => {
  it.each([
    [refused(401), "credentials"],
    [refused(403), "forbidden"],
    [refused(404), "not-found"],
    [refused(429), "rate-limited"],
    [refused(503, { "retry-after": "2" }), "rate-limited"],
    [refused(503), "http"],
    [refused(504), "timeout"],
    [{ statusCode: 401 }, "credentials"], // confluence.js
    [{ $metadata: { httpStatusCode: 404 } }, "not-found"], // AWS SDK
    [{ body: { response: { statusCode: 403 } } }, "forbidden"], // Backstage
    [{ response: { status: 429, headers: { "Retry-After": "7" } } }, "rate-limited"], // octokit
    [{ status_code: 404 }, "not-found"], // ollama-js's shape
    [new Error("wrapped", { cause: refused(401) }), "credentials"], // a wrapper's cause
  ])("%o is %s", (error, kind) => {
    expect(classifyFailure(error).kind).toBe(kind);
  });

  it("finds the network code under fetch's two wrappers, and tells a timeout from a refusal", () => {
    const refusedConnection = new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" }),
    });
    expect(classifyFailure(refusedConnection)).toMatchObject({ kind: "unreachable", reason: "ECONNREFUSED" });
    const timedOut = new DOMException("The operation was aborted due to timeout", "TimeoutError");
    expect(classifyFailure(timedOut).kind).toBe("timeout");
    expect(classifyFailure(Object.assign(new Error("x"), { code: "ETIMEDOUT" })).kind).toBe("timeout");
    expect(classifyFailure(new Error("something else")).kind).toBe("unknown");
  });

  it("reads Retry-After as seconds or as a date, in milliseconds", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    const waitOf = (value: string) =>
      classifyFailure(refused(429, { "retry-after": value }), now).retryAfterMs;
    expect(waitOf("30")).toBe(30_000);
    expect(waitOf("Thu, 01 Jan 2026 00:01:00 GMT")).toBe(60_000);
    expect(waitOf("soon")).toBeUndefined();
    expect(classifyFailure(refused(429, { "retry-after": "12" })).retryAfterMs).toBe(12_000);
  });

  it("takes a vendor's message from the usual body fields", () => {
    expect(messageOf({ errorMessages: ["Issue does not exist"], errors: {} })).toBe("Issue does not exist");
    expect(messageOf({ error: { message: "Incident not found", code: 2100 } })).toBe("Incident not found");
    expect(messageOf({ message: "Bad credentials" })).toBe("Bad credentials");
    expect(messageOf("   ")).toBeUndefined();
  });

  it("lets a vendor's reading decide: a status it adds sets the kind", () => {
    const generic = classifyFailure(new Error("HTTP error"));
    expect(mergeFailure(generic, { status: 401 }).kind).toBe("credentials");
    expect(mergeFailure(generic, { kind: "rate-limited", retryAfterMs: 60_000 })).toMatchObject({
      kind: "rate-limited",
      retryAfterMs: 60_000,
    });
  });
});

describe("the error a failed call becomes", () => {
  it("sends refused credentials to the user, naming the settings", () => {
    const error = describeFailure({ kind: "credentials", status: 401 }, names);
    expect(error).toBeInstanceOf(SwitchboardError);
    expect(error).toMatchObject({ code: "jira.credentials", category: "user" });
    expect(error.message).toContain("check ATLASSIAN_EMAIL and ATLASSIAN_TOKEN");
  });

  it("names the URL it could not reach and the setting that holds it", () => {
    const error = describeFailure({ kind: "unreachable", reason: "ENOTFOUND" }, names);
    expect(error).toMatchObject({ code: "jira.unreachable", category: "third-party" });
    expect(error.message).toContain("Cannot reach Jira at https://acme.atlassian.net (ENOTFOUND)");
    expect(error.message).toContain("check ATLASSIAN_API_URL");
  });

  it("says how long a rate limit asks to wait", () => {
    const error = describeFailure({ kind: "rate-limited", status: 429, retryAfterMs: 30_000 }, names);
    expect(error.message).toContain("try again in 30 s");
    const part = describeFailure({ kind: "rate-limited", status: 429, retryAfterMs: 1_500 }, names);
    expect(part.message).toContain("try again in 2 s");
  });

  it("names the call that was not found", () => {
    const failure = classifyFailure(refused(404, {}, "Issue does not exist"));
    expect(describeFailure(failure, names).message).toBe(
      "Jira answered 404 Not Found for GET /rest/api/3/issue/PLAT-1: Issue does not exist: it does not exist, or the credentials cannot see it.",
    );
  });

  it("never shows a secret, even one the vendor echoed back", () => {
    const token = "ATATT3xFfGF0-very-secret-token";
    const failure = { kind: "http" as const, status: 400, detail: `bad token ${token}` };
    const error = describeFailure(failure, names, [token]);
    expect(error.message).not.toContain(token);
  });
});

describe("a vendor's own reading", () => {
  it("can drop a status its client made up (a network failure reported as HTTP 500)", () => {
    const generic = classifyFailure({ status: 500 });
    expect(mergeFailure(generic, { kind: "timeout", status: null })).toEqual({ kind: "timeout" });
  });

  it("finds a network code an SDK keeps as `original`", () => {
    const slack = { code: "slack_webapi_request_error", original: { code: "ECONNREFUSED" } };
    expect(classifyFailure(slack)).toMatchObject({ kind: "unreachable", reason: "ECONNREFUSED" });
  });

  it("lets the model read a missing permission, while refused credentials end the turn", () => {
    expect(describeFailure({ kind: "forbidden", status: 403 }, names)).toMatchObject({
      code: "jira.forbidden",
      category: "third-party",
    });
    expect(describeFailure({ kind: "credentials" }, names).message).toContain("(refused)");
  });
});

describe("a fetch that never got an answer", () => {
  it("is unreachable, with the reason undici gives", () => {
    const error = new TypeError("fetch failed", { cause: new Error("getaddrinfo EAI_FAIL argocd.invalid") });
    expect(classifyFailure(error)).toMatchObject({
      kind: "unreachable",
      reason: "getaddrinfo EAI_FAIL argocd.invalid",
    });
  });

  it("starts its sentence in upper case whatever the vendor's name", () => {
    const error = describeFailure({ kind: "http", status: 500 }, { ...names, vendor: "the Petstore API" });
    expect(error.message).toBe("The Petstore API answered HTTP 500");
  });
});
