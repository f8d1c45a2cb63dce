import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeArgoCd, startFakeArgoCd } from "./index.js";

// Argo CD has no official JavaScript client: its REST API is spoken with fetch, as the agent does.
describe("fake Argo CD", () => {
  let argo: FakeArgoCd;
  const call = async (path: string, init: { method?: string; body?: unknown; token?: string } = {}) => {
    const response = await fetch(`${argo.url}/api/v1${path}`, {
      method: init.method ?? "GET",
      headers: { authorization: `Bearer ${init.token ?? argo.token}`, "content-type": "application/json" },
      ...(init.body ? { body: JSON.stringify(init.body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    argo = await startFakeArgoCd();
  });
  afterAll(() => argo.close());

  it("lists applications by project with their sync and health status", async () => {
    const { body } = await call("/applications?projects=payments");
    expect(body.items).toEqual([
      expect.objectContaining({
        metadata: expect.objectContaining({ name: "checkout-api" }),
        status: expect.objectContaining({ sync: expect.objectContaining({ status: "OutOfSync" }) }),
      }),
    ]);
  });

  it("answers a wrong token and a missing application as Argo CD's gateway does", async () => {
    expect(await call("/applications", { token: "nope" })).toEqual({
      status: 401,
      body: {
        error: "invalid session: token is invalid",
        code: 16,
        message: "invalid session: token is invalid",
      },
    });
    const missing = await call("/applications/nope");
    expect(missing).toMatchObject({
      status: 404,
      body: { code: 5, message: 'applications.argoproj.io "nope" not found' },
    });
  });

  it("checks requests against Argo CD's published OpenAPI description", async () => {
    // Swagger 2.0 from Argo CD's own Go module: the rollback id is an int64, so words are refused.
    const wrong = await call("/applications/checkout-api/rollback", { method: "POST", body: { id: "five" } });
    expect(wrong).toMatchObject({ status: 400, body: { code: 9 } });
    expect(wrong.body.message).toContain("ApplicationService_Rollback");
    // Described by Argo CD but not served by the fake: it says so instead of guessing.
    const tree = await call("/applications/guestbook/resource-tree");
    expect(tree).toMatchObject({ status: 501 });
    expect(tree.body.message).toContain("does not implement ApplicationService_ResourceTree");
    expect((await call("/no-such-thing")).status).toBe(404);
    expect(argo.operations).toEqual([]);
  });

  it("starts a sync, refuses a second one while it runs, and rolls back only without auto-sync", async () => {
    const synced = await call("/applications/guestbook/sync", { method: "POST", body: { prune: true } });
    expect(synced.body.operation).toMatchObject({ sync: { revision: "HEAD", prune: true } });
    expect((await call("/applications/guestbook/sync", { method: "POST", body: {} })).status).toBe(400);

    const rolled = await call("/applications/checkout-api/rollback", { method: "POST", body: { id: 5 } });
    expect(rolled.status).toBe(200);
    const auto = await call("/applications/platform-ingress/rollback", { method: "POST", body: { id: 2 } });
    expect(auto.body.message).toBe("rollback cannot be initiated when auto-sync is enabled");
    expect(argo.operations).toEqual([
      { action: "sync", application: "guestbook", revision: "HEAD", prune: true },
      {
        action: "rollback",
        application: "checkout-api",
        revision: "c0ffee000002",
        historyId: 5,
        prune: false,
      },
    ]);
  });
});
