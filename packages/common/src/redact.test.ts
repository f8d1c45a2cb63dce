import { describe, expect, it } from "vitest";
import {
  maskSecrets,
  maskUrlSecrets,
  maskUserinfo,
  PASSWORD_MASK,
  redactSecrets,
  SECRET_MASK,
} from "./redact.js";

describe("maskSecrets", () => {
  it("replaces every occurrence of each known value, with [redacted] or the given mask", () => {
    expect(maskSecrets("token abc then abc and xyz", ["abc", "xyz"])).toBe(
      `token ${SECRET_MASK} then ${SECRET_MASK} and ${SECRET_MASK}`,
    );
    expect(maskSecrets("key AKIDEXAMPLE", ["AKIDEXAMPLE"], "***")).toBe("key ***");
  });

  it("skips empty values instead of masking between every character", () => {
    expect(maskSecrets("plain", ["", "zzz"])).toBe("plain");
  });
});

describe("maskUserinfo", () => {
  it("masks the password and keeps the user", () => {
    expect(maskUserinfo("app:p@ss:word")).toBe(`app:${PASSWORD_MASK}`);
    expect(maskUserinfo("app")).toBe("app");
  });
});

describe("redactSecrets", () => {
  it("removes bearer tokens, well-known token shapes, URI passwords and secret query parameters", () => {
    const text =
      "Authorization: Bearer eyJhbGciOi.x-y_z== with sk-abcdefghijkl and ghp_0123456789abcdef at " +
      "mongodb://app:hunter2@db:27017/x and https://h/p?api_key=s3cret&x=1";
    expect(redactSecrets(text)).toBe(
      "Authorization: Bearer [redacted] with [redacted] and [redacted] at " +
        "mongodb://app:****@db:27017/x and https://h/p?api_key=****&x=1",
    );
  });

  it("masks the password of PostgreSQL and Redis connection strings too", () => {
    expect(redactSecrets("postgresql://langgraph:s3cr3t@pg:5432/db, redis://u:p4ss@r:6379")).toBe(
      "postgresql://langgraph:****@pg:5432/db, redis://u:****@r:6379",
    );
  });

  it("also masks the known values it is given", () => {
    expect(redactSecrets("the key is plain-value", ["plain-value"])).toBe("the key is [redacted]");
  });
});

describe("token shapes of the vendors agents call", () => {
  it.each([
    ["AWS access key id", "key AKIAIOSFODNN7EXAMPLE was refused"],
    ["AWS temporary key id", "ASIAJEXAMPLEXEG2JICEA in the header"],
    ["GitLab token", "glpat-xxxxxxxxxxxxxxxxxxxx is expired"],
    ["Atlassian token", "ATATT3xFfGF0abcdefghijklmnopqrstuvwxyz0123 expired"],
  ])("removes a %s", (_what, text) => {
    const redacted = redactSecrets(text);
    expect(redacted).toContain("[redacted]");
    expect(redacted).not.toMatch(/AKIA|ASIA[A-Z0-9]{12}|glpat-x|ATATT3/);
  });

  it("skips a configured value too short to be a secret, which would garble every word", () => {
    expect(maskSecrets("Cannot reach the API", ["t", "ab"])).toBe("Cannot reach the API");
  });

  it("leaves ordinary words alone", () => {
    expect(redactSecrets("skeleton_keys and asia-pacific regions")).toBe(
      "skeleton_keys and asia-pacific regions",
    );
  });
});

describe("maskUrlSecrets: a URL's secrets wherever it is printed", () => {
  it.each([
    [
      "LANGGRAPH_STORE_REDIS_URL=redis://:hunter2@cache:6379/0",
      "LANGGRAPH_STORE_REDIS_URL=redis://:****@cache:6379/0",
    ],
    ["amqp://guest:hunter2@mq/vhost", "amqp://guest:****@mq/vhost"],
    ["https://user:hunter2@git.example.com/x.git", "https://user:****@git.example.com/x.git"],
    ["mongodb+srv://app:p@ss:w0rd@cluster0.example.net/db", "mongodb+srv://app:****@cluster0.example.net/db"],
    ['{"url":"postgres://u:hunter2@pg/db"}', '{"url":"postgres://u:****@pg/db"}'],
    ["https://h/cb?code=abc123&state=s", "https://h/cb?code=****&state=s"],
    [
      "https://h/x?token=t0k&access_token=a1&refresh_token=r2",
      "https://h/x?token=****&access_token=****&refresh_token=****",
    ],
    [
      "https://b.s3/o?X-Amz-Signature=deadbeef&X-Amz-Credential=AK",
      "https://b.s3/o?X-Amz-Signature=****&X-Amz-Credential=****",
    ],
    ["https://h/x?client_secret=s&apiKey=k#frag", "https://h/x?client_secret=****&apiKey=****#frag"],
  ])("%s", (text, masked) => {
    expect(maskUrlSecrets(text)).toBe(masked);
    expect(redactSecrets(text)).toBe(masked);
  });

  it("leaves URLs without secrets, ports and ordinary text alone", () => {
    for (const text of [
      "http://supervisor:8000/v1/message:stream?contextId=c1&page=2",
      "listening on http://127.0.0.1:8006",
      "https://host:8443/path@2x.png",
      "ratio=3 and key points",
      "mailto:someone@example.com",
    ]) {
      expect(maskUrlSecrets(text)).toBe(text);
    }
  });
});
