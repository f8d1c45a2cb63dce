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
});
