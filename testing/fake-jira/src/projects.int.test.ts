import { HttpException, Version3Client } from "jira.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeJiraWithClient } from "../test/client.js";
import type { FakeJira } from "./server.js";

let jira: FakeJira;
let client: Version3Client;

beforeAll(async () => {
  ({ jira, client } = await startFakeJiraWithClient({ email: "ops-bot@example.com", token: "s3cret" }));
});
afterAll(() => jira.close());

describe("projects, myself and auth with the real jira.js client", () => {
  it("searches projects with paging and a text query", async () => {
    const all = await client.projects.searchProjects();
    expect(all.total).toBe(2);
    expect(all.values.map((p) => p.key)).toEqual(["PLAT", "OPS"]);
    expect(all.values[0]?.lead?.displayName).toBe("Alice Nguyen");

    const page = await client.projects.searchProjects({ query: "oper" });
    expect(page.values.map((p) => p.name)).toEqual(["Operations"]);
  });

  it("lists every project on the older GET /project", async () => {
    const projects = await client.sendRequest<{ key: string }[]>(
      { url: "/rest/api/3/project", method: "GET" },
      undefined as never,
    );
    expect(projects.map((p) => p.key)).toEqual(["PLAT", "OPS"]);
  });

  it("returns the authenticated account from /myself, even one the seed did not know", async () => {
    const me = await client.myself.getCurrentUser();
    expect(me.emailAddress).toBe("ops-bot@example.com");
    expect(me.accountType).toBe("atlassian");
    expect(me.active).toBe(true);
  });

  it("refuses a wrong token with 401 in Jira's error shape and logs the attempt", async () => {
    const wrong = new Version3Client({
      host: jira.url,
      authentication: { basic: { email: jira.email, apiToken: "wrong" } },
    });
    const error = (await wrong.myself.getCurrentUser().catch((e: unknown) => e)) as HttpException;
    expect(error).toBeInstanceOf(HttpException);
    expect(error.status).toBe(401);
    expect((error.response as { data: unknown }).data).toEqual({
      errorMessages: ["Client must be authenticated to access this resource."],
      errors: {},
    });
    expect(jira.requests.at(-1)).toMatchObject({
      method: "GET",
      path: "/rest/api/3/myself",
      auth: { scheme: "basic", email: "ops-bot@example.com" },
      status: 401,
    });
  });

  it("refuses a request with no credentials", async () => {
    const response = await fetch(`${jira.url}/rest/api/3/project/search`);
    expect(response.status).toBe(401);
    expect(jira.requests.at(-1)?.auth).toEqual({ scheme: "none" });
  });
});
