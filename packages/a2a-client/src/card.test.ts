import { describe, expect, it } from "vitest";
import { pinnedGrpcAddress, pinnedUrl, withPinnedUrls } from "./card.js";

describe("pinnedUrl", () => {
  it("points a bind-all address at the configured host, without calling it elsewhere", () => {
    expect(pinnedUrl("http://0.0.0.0:8000/", "http://jira-agent:8006")).toEqual({
      url: "http://jira-agent:8006/",
      elsewhere: false,
    });
    expect(pinnedUrl("http://[::]:8000/rpc", "https://agents.example.com")).toEqual({
      url: "https://agents.example.com/rpc",
      elsewhere: false,
    });
  });

  it("keeps the path a bind-all address names, on the configured host", () => {
    expect(pinnedUrl("http://0.0.0.0:8000/a2a/jsonrpc", "http://py-agent:9000/legacy")).toEqual({
      url: "http://py-agent:9000/a2a/jsonrpc",
      elsewhere: false,
    });
  });

  it("points localhost at the configured host", () => {
    expect(pinnedUrl("http://localhost:8000/", "http://10.0.0.5:8006")).toEqual({
      url: "http://10.0.0.5:8006/",
      elsewhere: false,
    });
    expect(pinnedUrl("http://localhost:8000/", "http://127.0.0.1:8000").url).toBe("http://127.0.0.1:8000/");
  });

  it("keeps the card's path under the base, on the configured origin", () => {
    expect(pinnedUrl("http://jira-agent:8006/a2a/rest", "http://jira-agent:8006")).toEqual({
      url: "http://jira-agent:8006/a2a/rest",
      elsewhere: false,
    });
    expect(pinnedUrl("https://gw.example.com/jira/rest", "https://gw.example.com/jira").url).toBe(
      "https://gw.example.com/jira/rest",
    );
  });

  it("never follows a card to another host: the call goes to the configured URL, flagged", () => {
    expect(pinnedUrl("https://attacker.example.com/steal", "http://jira:8006")).toEqual({
      url: "http://jira:8006/steal",
      elsewhere: true,
    });
    expect(pinnedUrl("http://127.0.0.1:9999/", "http://127.0.0.1:8006")).toEqual({
      url: "http://127.0.0.1:8006/",
      elsewhere: true,
    });
  });

  it("never follows a card out of the base path (another agent behind the same gateway)", () => {
    expect(pinnedUrl("https://gw.example.com/github/", "https://gw.example.com/jira")).toEqual({
      url: "https://gw.example.com/jira",
      elsewhere: true,
    });
  });

  it("reads an unparsable URL as the base URL", () => {
    expect(pinnedUrl("not a url ::", "http://jira:8006").url).toMatch(/^http:\/\/jira:8006\//);
  });
});

describe("pinnedGrpcAddress", () => {
  it("keeps gRPC on the configured host, on the card's port", () => {
    expect(pinnedGrpcAddress("localhost:9006", "http://jira:8006")).toEqual({
      address: "jira:9006",
      elsewhere: false,
    });
    expect(pinnedGrpcAddress("0.0.0.0:9006", "http://jira:8006")).toEqual({
      address: "jira:9006",
      elsewhere: false,
    });
    expect(pinnedGrpcAddress("jira:9006", "http://jira:8006")).toEqual({
      address: "jira:9006",
      elsewhere: false,
    });
    expect(pinnedGrpcAddress("grpc://jira:443", "https://jira/")).toEqual({
      address: "jira:443",
      elsewhere: false,
    });
  });

  it("drops a card's gRPC address on another host (the token would go there), saying so", () => {
    expect(pinnedGrpcAddress("attacker.example:443", "http://jira:8006")).toEqual({
      address: undefined,
      elsewhere: true,
    });
    const card = {
      supportedInterfaces: [
        { url: "attacker.example:443", protocolBinding: "GRPC", tenant: "", protocolVersion: "1.0" },
        { url: "http://jira:8006/", protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
      ],
    } as unknown as Parameters<typeof withPinnedUrls>[0];
    const pinned = withPinnedUrls(card, "http://jira:8006");
    expect(pinned.card.supportedInterfaces?.map((i) => i.protocolBinding)).toEqual(["JSONRPC"]);
    expect(pinned.elsewhere).toEqual(["attacker.example:443"]);
  });

  it("keeps the tenant a gRPC interface names (a host of many agents routes by it), on the configured host", () => {
    const card = {
      supportedInterfaces: [
        { url: "0.0.0.0:9100", protocolBinding: "GRPC", tenant: "team-b-agent", protocolVersion: "1.0" },
      ],
    } as unknown as Parameters<typeof withPinnedUrls>[0];
    const pinned = withPinnedUrls(card, "http://dynamic-agents:8100/agents/team-b-agent");
    expect(pinned.card.supportedInterfaces).toEqual([
      { url: "dynamic-agents:9100", protocolBinding: "GRPC", tenant: "team-b-agent", protocolVersion: "1.0" },
    ]);
    expect(pinned.elsewhere).toEqual([]);
  });
});
