import { describe, expect, it } from "vitest";
import { reachableUrl } from "./card.js";

describe("reachableUrl", () => {
  it("points a bind-all address at the host the card came from", () => {
    expect(reachableUrl("http://0.0.0.0:8000/", "http://jira-agent:8006")).toBe("http://jira-agent:8006/");
    expect(reachableUrl("http://[::]:8000/rpc", "https://agents.example.com")).toBe(
      "https://agents.example.com/rpc",
    );
  });

  it("points localhost at the remote host, but leaves it when we are local too", () => {
    expect(reachableUrl("http://localhost:8000/", "http://10.0.0.5:8006")).toBe("http://10.0.0.5:8006/");
    expect(reachableUrl("http://localhost:8000/", "http://127.0.0.1:8000")).toBe("http://localhost:8000/");
  });

  it("keeps ordinary URLs, including a gateway on another host", () => {
    expect(reachableUrl("https://gw.example.com/jira", "http://jira:8006")).toBe(
      "https://gw.example.com/jira",
    );
  });
});
