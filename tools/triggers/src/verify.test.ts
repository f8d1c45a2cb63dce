import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { WebhookSettings } from "./config.js";
import { Refusal, verifyDelivery } from "./verify.js";

const context = { replayWindowSeconds: 300, now: () => 1_800_000_000_000 };
const webhook = (
  provider: WebhookSettings["provider"],
  secret: string,
  dedupHeader?: string,
): WebhookSettings => ({
  kind: "webhook",
  provider,
  secret,
  dedupHeader,
});
const refused = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(Refusal);
    return (error as Refusal).status;
  }
  throw new Error("The delivery was taken.");
};

describe("verifyDelivery", () => {
  it("takes GitHub's own documented example (secret, body and X-Hub-Signature-256) and refuses a changed body", () => {
    const github = webhook("github", "It's a Secret to Everybody");
    const headers = {
      "x-hub-signature-256": "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
      "x-github-event": "ping",
    };
    expect(verifyDelivery(github, headers, Buffer.from("Hello, World!"), context)).toEqual({ kind: "ping" });
    expect(refused(() => verifyDelivery(github, headers, Buffer.from("Hello, World?"), context))).toBe(401);
  });

  it("reads the raw body as sent: the same JSON re-spaced is a different body", () => {
    const github = webhook("github", "s");
    const raw = '{"a": 1}';
    const headers = {
      "x-hub-signature-256": `sha256=${createHmac("sha256", "s").update(raw).digest("hex")}`,
      "x-github-delivery": "d-1",
    };
    expect(verifyDelivery(github, headers, Buffer.from(raw), context)).toMatchObject({ deliveryId: "d-1" });
    expect(refused(() => verifyDelivery(github, headers, Buffer.from('{"a":1}'), context))).toBe(401);
  });

  it("PagerDuty: any of several v1 signatures may match; none matching, or none at all, is refused", () => {
    const pagerduty = webhook("pagerduty", "pd");
    const body = Buffer.from(JSON.stringify({ event: { id: "01X", event_type: "incident.triggered" } }));
    const good = `v1=${createHmac("sha256", "pd").update(body).digest("hex")}`;
    expect(
      verifyDelivery(pagerduty, { "x-pagerduty-signature": `v1=abc, ${good}` }, body, context),
    ).toMatchObject({
      deliveryId: "01X",
    });
    expect(
      refused(() => verifyDelivery(pagerduty, { "x-pagerduty-signature": "v1=abc" }, body, context)),
    ).toBe(401);
    expect(refused(() => verifyDelivery(pagerduty, {}, body, context))).toBe(401);
  });

  it("Alertmanager: the secret as a bearer token or a basic-auth password; the same group and alerts are one delivery", () => {
    const alertmanager = webhook("alertmanager", "tok");
    const payload = (status: string) =>
      Buffer.from(
        JSON.stringify({
          version: "4",
          groupKey: '{}:{alertname="X"}',
          status,
          alerts: [{ fingerprint: "f1", startsAt: "2026-01-01T00:00:00Z", status }],
        }),
      );
    const bearer = verifyDelivery(alertmanager, { authorization: "Bearer tok" }, payload("firing"), context);
    const basic = verifyDelivery(
      alertmanager,
      { authorization: `Basic ${Buffer.from("am:tok").toString("base64")}` },
      payload("firing"),
      context,
    );
    const resolved = verifyDelivery(
      alertmanager,
      { authorization: "Bearer tok" },
      payload("resolved"),
      context,
    );
    expect(bearer).toMatchObject({ kind: "delivery" });
    expect(basic).toEqual(bearer);
    expect(resolved).not.toEqual(bearer);
    expect(
      refused(() =>
        verifyDelivery(alertmanager, { authorization: "Bearer tok2" }, payload("firing"), context),
      ),
    ).toBe(401);
    expect(
      refused(() =>
        verifyDelivery(
          alertmanager,
          { authorization: "Bearer tok" },
          Buffer.from('{"version":"3"}'),
          context,
        ),
      ),
    ).toBe(400);
  });

  it("generic: the timestamp is signed with the body, and one outside the window is refused either way", () => {
    const generic = webhook("generic_hmac", "g", "x-request-id");
    const body = Buffer.from('{"x":1}');
    const sign = (t: string) =>
      `sha256=${createHmac("sha256", "g").update(`${t}.`).update(body).digest("hex")}`;
    const now = String(context.now() / 1000);
    expect(
      verifyDelivery(
        generic,
        { "x-webhook-timestamp": now, "x-webhook-signature-256": sign(now), "x-request-id": "r-7" },
        body,
        context,
      ),
    ).toMatchObject({ deliveryId: "r-7" });
    for (const skew of [-301, 301]) {
      const t = String(context.now() / 1000 + skew);
      expect(
        refused(() =>
          verifyDelivery(
            generic,
            { "x-webhook-timestamp": t, "x-webhook-signature-256": sign(t) },
            body,
            context,
          ),
        ),
      ).toBe(401);
    }
    expect(
      refused(() => verifyDelivery(generic, { "x-webhook-signature-256": sign(now) }, body, context)),
    ).toBe(401);
  });
});
