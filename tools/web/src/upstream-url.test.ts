import { describe, expect, it } from "vitest";
import { upstreamUrl } from "./upstream-url.js";

const supervisor = new URL("http://supervisor.internal:8000");
const below = new URL("https://relay.example/base/");

describe("upstreamUrl: a forwarded path keeps the configured origin", () => {
  it("puts the page's path and query below the configured base", () => {
    expect(upstreamUrl(supervisor, "/")?.href).toBe("http://supervisor.internal:8000/");
    expect(upstreamUrl(supervisor, "/v1/message:stream?x=1&y=%2F")?.href).toBe(
      "http://supervisor.internal:8000/v1/message:stream?x=1&y=%2F",
    );
    expect(upstreamUrl(supervisor, "/conversations/3f1c2a9e-7b1d-4f7a-9c55-0e9f3a1b2c3d")?.pathname).toBe(
      "/conversations/3f1c2a9e-7b1d-4f7a-9c55-0e9f3a1b2c3d",
    );
    expect(upstreamUrl(below, "/slack/link/abc/")?.href).toBe("https://relay.example/base/slack/link/abc/");
  });

  it("refuses every path that could change scheme, host or port, or climb above the base", () => {
    const attacks = [
      "//10.0.0.5:9956/x",
      "///10.0.0.5/x",
      "/\\\\10.0.0.5/x",
      "/\\10.0.0.5",
      "/x//y",
      "/%2f%2f10.0.0.5/x",
      "/%2F10.0.0.5",
      "/%5c%5c10.0.0.5",
      "/../admin",
      "/a/../../x",
      "/./x",
      "/%2e%2e/x",
      "/.%2E/x",
      "/@10.0.0.5/x",
      "/x%40evil",
      "http://10.0.0.5:9956/x",
      "10.0.0.5/x",
      "",
      "/x\ty",
      "/x\n/y",
      "/x y",
      "/x%00",
    ];
    for (const path of attacks) expect(upstreamUrl(supervisor, path), path).toBeUndefined();
    expect(upstreamUrl(below, "/../x")).toBeUndefined();
  });

  it("drops the configured URL's userinfo and fragment rather than send them on", () => {
    const url = upstreamUrl(new URL("http://user:pw@supervisor.internal:8000/#frag"), "/x");
    expect(url?.href).toBe("http://supervisor.internal:8000/x");
  });
});
