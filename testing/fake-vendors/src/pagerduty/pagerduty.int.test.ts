import { api } from "@pagerduty/pdjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakePagerDuty, startFakePagerDuty } from "./index.js";

// The real @pagerduty/pdjs client against the fake: what it sends and what it gets back.
describe("fake PagerDuty", () => {
  let pd: FakePagerDuty;
  const call = (path: string, options: Record<string, unknown> = {}) =>
    api({ token: pd.apiKey, url: `${pd.url}${path}`, ...options });

  beforeAll(async () => {
    pd = await startFakePagerDuty();
  });
  afterAll(() => pd.close());

  it("lists open incidents newest first, filtered by status", async () => {
    const response = await call("/incidents", {
      queryParameters: { "statuses[]": ["triggered", "acknowledged"] },
    });
    expect(response.status).toBe(200);
    expect(response.data.incidents.map((one: { incident_number: number }) => one.incident_number)).toEqual([
      101, 102,
    ]);
    expect(response.data).toMatchObject({ limit: 25, offset: 0, more: false });
  });

  it("refuses a wrong key and an unknown status with PagerDuty's error body", async () => {
    const denied = await api({ token: "wrong", url: `${pd.url}/incidents` });
    expect(denied.status).toBe(401);
    expect(denied.data).toEqual({ error: { message: "Authentication failed", code: 2006 } });
    const bad = await call("/incidents", { queryParameters: { "statuses[]": "open" } });
    expect(bad.status).toBe(400);
    expect(bad.data.error.code).toBe(2001);
  });

  it("shows who is on call for each escalation level", async () => {
    const response = await call("/oncalls", { queryParameters: { earliest: "true" } });
    expect(
      response.data.oncalls.map(
        (one: { user: { summary: string }; escalation_level: number }) =>
          `${one.user.summary}:${one.escalation_level}`,
      ),
    ).toEqual(["Alice Oncall:1", "Bob Secondary:2", "Carol Data:1"]);
  });

  it("creates, acknowledges and resolves an incident only with a known From user", async () => {
    const incident = {
      type: "incident",
      title: "queue backlog",
      service: { id: "PSVC002", type: "service_reference" },
      urgency: "low",
    };
    const anonymous = await call("/incidents", { method: "POST", data: { incident } });
    expect(anonymous.status).toBe(400);
    expect(pd.changes).toHaveLength(0);

    const from = { From: pd.fromEmail };
    const created = await call("/incidents", { method: "POST", headers: from, data: { incident } });
    expect(created.status).toBe(201);
    const id = created.data.incident.id as string;
    expect(created.data.incident).toMatchObject({
      status: "triggered",
      urgency: "low",
      incident_number: 103,
    });

    const update = (status: string) =>
      call(`/incidents/${id}`, {
        method: "PUT",
        headers: from,
        data: { incident: { type: "incident_reference", status } },
      });
    expect((await update("acknowledged")).data.incident.status).toBe("acknowledged");
    expect((await update("resolved")).data.incident.status).toBe("resolved");
    expect((await update("acknowledged")).status).toBe(400);
    expect(pd.changes.map((change) => change.action)).toEqual(["create", "acknowledge", "resolve"]);
  });

  it("answers 404 for an unknown incident", async () => {
    const missing = await call("/incidents/QNOPE");
    expect(missing.status).toBe(404);
    expect(missing.data.error).toMatchObject({ message: "Incident Not Found", code: 2100 });
  });
});
