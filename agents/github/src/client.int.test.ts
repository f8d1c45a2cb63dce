import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { isSwitchboardError } from "@switchboard/common";
import { type FakeGithub, startFakeGithub } from "@switchboard-testing/fake-github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { githubConnection } from "./client.js";

/** A server that answers every request the same way, counting them. */
async function startCanned(status: number, headers: Record<string, string>, body: string) {
  let hits = 0;
  const server: Server = createServer((_req, res) => {
    hits += 1;
    res.writeHead(status, headers);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3`,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the call to fail");
}

describe("githubConnection with the real Octokit", () => {
  let github: FakeGithub;
  beforeAll(async () => {
    github = await startFakeGithub();
  });
  afterAll(() => github.close());

  it("sends nothing until a tool needs GitHub, then uses GITHUB_API_URL and the token", async () => {
    const connection = githubConnection({
      GITHUB_API_URL: `${github.url}/`,
      GITHUB_PERSONAL_ACCESS_TOKEN: github.token,
    });
    const before = github.requests.length;
    const { data } = await connection.call({}, (client) => client.rest.users.getAuthenticated());
    expect(data.login).toBe("octo-dev");
    // The first call builds the client: the one request it made is the call's own.
    expect(github.requests.slice(before)).toEqual([
      expect.objectContaining({ path: "/api/v3/user", status: 200 }),
    ]);
  });

  it("turns a rate limit into a message with the time to its reset instead of sleeping until it lifts", async () => {
    const reset = Math.floor(Date.now() / 1000) + 1800;
    const limited = await startCanned(
      403,
      {
        "content-type": "application/json",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(reset),
      },
      JSON.stringify({ message: "API rate limit exceeded for user ID 1." }),
    );
    const connection = githubConnection({
      GITHUB_API_URL: limited.url,
      GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_x",
    });
    const started = Date.now();
    const error = await failure(
      connection.call({}, (client) => client.rest.repos.get({ owner: "acme", repo: "infra" })),
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(isSwitchboardError(error) && error.category).toBe("third-party");
    expect(isSwitchboardError(error) && error.code).toBe("github.rate-limited");
    expect(error.message).toContain("(HTTP 403: API rate limit exceeded for user ID 1.)");
    // The wait is the time left until x-ratelimit-reset.
    const wait = Number(/try again in (\d+) s/.exec(error.message)?.[1]);
    expect(wait).toBeGreaterThan(reset - Date.now() / 1000 - 5);
    expect(wait).toBeLessThanOrEqual(reset - started / 1000 + 1);
    expect(limited.hits()).toBe(1);
    await limited.close();
  });

  it("retries a failed read once, and never retries a write", async () => {
    const broken = await startCanned(
      502,
      { "content-type": "application/json" },
      JSON.stringify({ message: "Bad gateway" }),
    );
    const connection = githubConnection({
      GITHUB_API_URL: broken.url,
      GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_x",
    });
    const read = await failure(
      connection.call({}, (client) => client.rest.repos.get({ owner: "acme", repo: "infra" })),
    );
    expect(read.message).toBe("GitHub answered HTTP 502 to GET /repos/acme/infra: Bad gateway");
    expect(broken.hits()).toBe(2);
    const { githubTools } = await import("./tools.js");
    const create = githubTools(connection).find(({ tool }) => tool.name === "create_issue")?.tool;
    await expect(create?.invoke({ repo: "acme/infra", title: "Once" })).rejects.toThrow(
      "HTTP 502 to POST /repos/acme/infra/issues",
    );
    expect(broken.hits()).toBe(3);
    await broken.close();
  });

  it("says GITHUB_API_URL is wrong when it points at a web page instead of the API", async () => {
    const web = await startCanned(
      404,
      { "content-type": "text/html" },
      "<!DOCTYPE html><html>Page not found</html>",
    );
    const connection = githubConnection({
      GITHUB_API_URL: web.url,
      GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_x",
    });
    const error = await failure(
      connection.call({}, (client) => client.rest.repos.get({ owner: "acme", repo: "infra" })),
    );
    expect(isSwitchboardError(error) && error.category).toBe("user");
    expect(error.message).toContain("with a web page, not the GitHub REST API: set GITHUB_API_URL");
    await web.close();
  });
});
