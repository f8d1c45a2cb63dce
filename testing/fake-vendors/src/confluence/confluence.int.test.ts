import { ConfluenceClient } from "confluence.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeConfluence, startFakeConfluence } from "./index.js";

// The real confluence.js client against the fake: what it sends and what it gets back.
describe("fake Confluence", () => {
  let wiki: FakeConfluence;
  let client: ConfluenceClient;

  beforeAll(async () => {
    wiki = await startFakeConfluence();
    client = new ConfluenceClient({
      host: wiki.url,
      authentication: { basic: { email: wiki.email, apiToken: wiki.token } },
    });
  });
  afterAll(() => wiki.close());

  it("searches with CQL and reads a page's storage body", async () => {
    const found = await client.search.searchByCQL({ cql: 'space = OPS AND text ~ "roll back"' });
    expect(found.results.map((one) => one.content?.id)).toEqual(["65537"]);
    const page = await client.content.getContentById({ id: "65537", expand: ["body.storage", "version"] });
    expect(page.body?.storage?.value).toContain("roll back with Argo CD");
    expect(page.version?.number).toBe(3);
    await expect(client.search.searchByCQL({ cql: "nonsense" })).rejects.toMatchObject({
      statusCode: 400,
      message: "Could not parse cql : nonsense",
    });
  });

  it("creates a page once per title, and updates only with the next version number", async () => {
    const created = await client.content.createContent({
      type: "page",
      title: "Deploy freeze",
      space: { key: "ENG" },
      body: { storage: { value: "<p>No deploys on Friday.</p>", representation: "storage" } },
    });
    expect(created.version?.number).toBe(1);
    const update = (number: number) =>
      client.content.updateContent({
        id: created.id,
        type: "page",
        title: "Deploy freeze",
        version: { number },
        body: { storage: { value: "<p>No deploys on Friday or Monday.</p>", representation: "storage" } },
      });
    await expect(update(1)).rejects.toMatchObject({
      statusCode: 409,
      message: "Version must be incremented on update. Current version is: 1",
    });
    expect((await update(2)).version?.number).toBe(2);
    expect(wiki.changes.map((one) => `${one.action} v${one.version}`)).toEqual(["create v1", "update v2"]);
  });

  it("lists a space's pages with bodies, ancestors and read restrictions, and the space's read permission", async () => {
    wiki.state.pages.push({
      id: "65540",
      title: "Private child",
      spaceKey: "OPS",
      body: "<p>child</p>",
      version: 1,
      updatedAt: new Date().toISOString(),
      updatedBy: "Alice Oncall",
      parentId: "65537",
      restrictions: { groups: ["sre"], users: ["alice"] },
    });
    const listed = await client.content.getContent({
      spaceKey: "OPS",
      type: "page",
      start: 0,
      limit: 2,
      expand: ["body.storage", "version", "ancestors", "restrictions.read.restrictions.group"],
    });
    expect(listed.results.map((page) => page.id)).toEqual(["65537", "65538"]);
    const next = await client.content.getContent({
      spaceKey: "OPS",
      type: "page",
      start: 2,
      limit: 2,
      expand: ["ancestors", "restrictions.read.restrictions.user", "restrictions.read.restrictions.group"],
    });
    const child = next.results[0];
    expect(child?.ancestors?.map((one) => one.id)).toEqual(["65537"]);
    expect(child?.restrictions?.read?.restrictions?.group?.results.map((one) => one.name)).toEqual(["sre"]);
    expect(child?.restrictions?.read?.restrictions?.user?.results.map((one) => one.accountId)).toEqual([
      "alice",
    ]);
    const restriction = await client.contentRestrictions.getRestrictionsForOperation({
      id: "65540",
      operationKey: "read",
    });
    expect(restriction.restrictions?.group?.results.map((one) => one.name)).toEqual(["sre"]);

    wiki.state.spaces[1] = {
      key: "OPS",
      name: "Operations",
      permissions: { anonymous: true, groups: ["sre"] },
    };
    const space = await client.space.getSpace({ spaceKey: "OPS", expand: ["permissions"] });
    const reads = (space.permissions ?? []).filter((one) => one.operation?.operation === "read");
    expect(reads.some((one) => one.anonymousAccess)).toBe(true);
    expect(reads.flatMap((one) => one.subjects?.group?.results?.map((group) => group.name) ?? [])).toEqual([
      "sre",
    ]);
  });
});
