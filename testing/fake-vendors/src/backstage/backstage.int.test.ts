import { CatalogClient } from "@backstage/catalog-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeBackstage, startFakeBackstage } from "./index.js";

// The real @backstage/catalog-client against the fake: what it sends and what it gets back.
describe("fake Backstage catalog", () => {
  let backstage: FakeBackstage;
  let catalog: CatalogClient;
  const auth = () => ({ token: backstage.token });

  beforeAll(async () => {
    backstage = await startFakeBackstage();
    catalog = new CatalogClient({ discoveryApi: { getBaseUrl: async () => `${backstage.url}/api/catalog` } });
  });
  afterAll(() => backstage.close());

  it("queries entities by filter and full text", async () => {
    const services = await catalog.queryEntities(
      { filter: { kind: "component", "spec.type": "service" }, fullTextFilter: { term: "refund" } },
      auth(),
    );
    expect(services.items.map((one) => one.metadata.name)).toEqual(["refunds-worker"]);
    const owned = await catalog.queryEntities(
      { filter: { "relations.ownedBy": "group:default/payments" } },
      auth(),
    );
    expect(owned.totalItems).toBe(4);
  });

  it("reads an entity by ref, and answers undefined for a missing one", async () => {
    const entity = await catalog.getEntityByRef("component:default/checkout-api", auth());
    expect(entity?.spec?.owner).toBe("group:default/payments");
    expect(await catalog.getEntityByRef("component:default/nope", auth())).toBeUndefined();
  });

  it("refuses a wrong token and refreshes a known entity", async () => {
    await expect(
      catalog.getEntityByRef("component:default/checkout-api", { token: "nope" }),
    ).rejects.toMatchObject({
      message: "Request failed with 401 Unauthorized",
      body: { error: { name: "AuthenticationError", message: "Illegal token" } },
    });
    await catalog.refreshEntity("component:default/web-shop", auth());
    expect(backstage.refreshed).toEqual(["component:default/web-shop"]);
  });
});
