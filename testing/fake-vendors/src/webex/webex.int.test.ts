import { afterAll, beforeAll, expect, it } from "vitest";
import { type FakeWebex, startFakeWebex } from "./index.js";

// The fake Webex is driven by Webex's own description (specs/webex/messaging.json): what breaks it is
// refused as Webex would, before the fake's state is touched.
let webex: FakeWebex;
beforeAll(async () => {
  webex = await startFakeWebex();
});
afterAll(() => webex.close());

const call = (method: string, path: string, body?: object) =>
  fetch(`${webex.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${webex.token}`, "content-type": "application/json" },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

it("refuses a membership without its room and a message list without roomId, naming the operation", async () => {
  const added = await call("POST", "/memberships", { personEmail: "dana@example.com" });
  expect(added.status).toBe(400);
  const error = (await added.json()) as { message: string; trackingId: string };
  expect(error.message).toContain("Create a Membership");
  expect(error.message).toContain("must have required property 'roomId'");
  expect(error.trackingId).toMatch(/^ROUTER_/);

  const listed = await call("GET", "/messages?max=5");
  expect(listed.status).toBe(400);
  expect(((await listed.json()) as { message: string }).message).toContain("List Messages");
  expect(webex.changes).toHaveLength(0);
});

it("answers a described call with the description's shapes, and has no route for an undescribed one", async () => {
  const rooms = await call("GET", "/rooms?type=group&sortBy=lastactivity&max=10");
  expect(rooms.status).toBe(200);
  const { items } = (await rooms.json()) as { items: Array<{ title: string }> };
  expect(items.length).toBeGreaterThan(0);
  expect((await call("GET", "/teams")).status).toBe(404);
});
