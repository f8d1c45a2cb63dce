import { afterEach, describe, expect, it } from "vitest";
import {
  startVendorServer,
  type VendorApi,
  type VendorHttpError,
  type VendorServer,
} from "./vendor-server.js";
import { ARGO_CD_SPEC, BACKSTAGE_CATALOG_SPEC, loadVendorSpec } from "./vendor-spec.js";

// The spec-driven half of startVendorServer, on the vendors' real descriptions fetched from their
// registry packages (Backstage's npm package, Argo CD's Go module).
describe("a fake driven by the vendor's OpenAPI description", () => {
  let server: VendorServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const backstage = async (
    operations: NonNullable<VendorApi["openApi"]>["operations"],
  ): Promise<VendorApi> => ({
    name: "Backstage",
    openApi: { document: await loadVendorSpec(BACKSTAGE_CATALOG_SPEC), apiRoot: "/api/catalog", operations },
    checkRequest: () => undefined,
    errorBody: (error: VendorHttpError) => ({ error: { message: error.message, details: error.details } }),
  });

  it("loads both descriptions as OpenAPI 3 with the operations the fakes serve", async () => {
    const argo = await loadVendorSpec(ARGO_CD_SPEC);
    expect(argo.openapi).toMatch(/^3\./); // converted from Swagger 2.0
    expect(argo.paths?.["/api/v1/applications/{name}/sync"]?.post?.operationId).toBe(
      "ApplicationService_Sync",
    );
    const catalog = await loadVendorSpec(BACKSTAGE_CATALOG_SPEC);
    expect(catalog.openapi).toBe("3.1.0");
    expect(catalog.paths?.["/entities/by-query"]?.get?.operationId).toBe("GetEntitiesByQuery");
  });

  it("refuses a request that breaks the description, naming the operation and the field", async () => {
    let called = 0;
    server = await startVendorServer(
      await backstage({
        RefreshEntity: () => {
          called++;
          return { status: 200 };
        },
      }),
    );
    const response = await fetch(`${server.url}/api/catalog/refresh`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ entityRef: 42 }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string; details: string[] } };
    expect(body.error.message).toContain("RefreshEntity");
    expect(body.error.details.join(" ")).toContain("/entityRef must be string");
    expect(called).toBe(0);
  });

  it("answers 500 when the fake's own answer drifts from the vendor's response schema", async () => {
    server = await startVendorServer(
      await backstage({ GetEntitiesByQuery: () => ({ status: 200, body: { items: "not a list" } }) }),
    );
    const response = await fetch(`${server.url}/api/catalog/entities/by-query`);
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      "answer to GetEntitiesByQuery breaks the vendor's OpenAPI description",
    );
  });

  it("will not start with a handler for an operation the description lacks", async () => {
    await expect(
      startVendorServer(await backstage({ GetEntitiesByVibes: () => ({ status: 200 }) })),
    ).rejects.toThrow("the vendor's OpenAPI description has no operation GetEntitiesByVibes");
  });
});
