import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { WebhookSettings } from "./config.js";

export type Headers = Record<string, string | string[] | undefined>;

/** A delivery that passed its vendor's check: its id (the dedupe key), or a ping that runs nothing. */
export type Verified = { kind: "delivery"; deliveryId: string; payload: unknown } | { kind: "ping" };

/** Why a delivery is refused: 401 for who sent it, 400 for what it is. Never says what was expected. */
export class Refusal extends Error {
  constructor(
    readonly status: 400 | 401,
    message: string,
  ) {
    super(message);
  }
}

export interface VerifyContext {
  /** How far a signed timestamp may be from now, either way. */
  replayWindowSeconds: number;
  now: () => number;
}

/**
 * Verifies a delivery as its vendor specifies, over the raw body as received (never a re-serialised
 * parse), comparing in constant time; throws a Refusal for anything else.
 */
export function verifyDelivery(
  task: WebhookSettings,
  headers: Headers,
  body: Buffer,
  context: VerifyContext,
): Verified {
  switch (task.provider) {
    case "alertmanager":
      return verifyAlertmanager(task, headers, body);
    case "github":
      return verifyGithub(task, headers, body);
    case "pagerduty":
      return verifyPagerduty(task, headers, body);
    case "generic_hmac":
      return verifyGeneric(task, headers, body, context);
  }
}

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}

function hmacHex(secret: string, ...parts: (string | Buffer)[]): string {
  const mac = createHmac("sha256", secret);
  for (const part of parts) mac.update(part);
  return mac.digest("hex");
}

/** Equal in time independent of where they differ (hashing first makes the lengths equal too). */
function same(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

function json(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw new Refusal(400, "The body is not JSON.");
  }
}

/**
 * Alertmanager signs nothing: its webhook_config's http_config sends credentials, and the task's secret
 * is them: `authorization: { credentials: <secret> }` (a bearer token) or `basic_auth` with the secret
 * as its password. A retry carries the same group, status and alerts, so they are the delivery's id.
 */
function verifyAlertmanager(task: WebhookSettings, headers: Headers, body: Buffer): Verified {
  const auth = header(headers, "authorization") ?? "";
  const [scheme = "", credentials = ""] = auth.split(/\s+/, 2);
  let presented: string | undefined;
  if (scheme.toLowerCase() === "bearer") presented = credentials;
  else if (scheme.toLowerCase() === "basic") {
    const decoded = Buffer.from(credentials, "base64").toString("utf8");
    presented = decoded.slice(decoded.indexOf(":") + 1);
  }
  if (presented === undefined || !same(presented, task.secret))
    throw new Refusal(
      401,
      "Missing or wrong credentials: Alertmanager's http_config must send the task's secret.",
    );
  const payload = json(body) as {
    version?: unknown;
    groupKey?: unknown;
    status?: unknown;
    alerts?: { fingerprint?: unknown; startsAt?: unknown; status?: unknown }[];
  };
  if (payload?.version !== "4" || typeof payload.groupKey !== "string" || !Array.isArray(payload.alerts))
    throw new Refusal(400, "Not an Alertmanager webhook (version 4, with groupKey and alerts).");
  const alerts = payload.alerts
    .map((alert) => `${String(alert.fingerprint)}@${String(alert.startsAt)}:${String(alert.status)}`)
    .sort();
  const id = createHash("sha256")
    .update(JSON.stringify([payload.groupKey, payload.status, alerts]))
    .digest("hex");
  return { kind: "delivery", deliveryId: custom(task, headers) ?? id, payload };
}

/** GitHub: `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the body>`; `X-GitHub-Delivery` is its id. */
function verifyGithub(task: WebhookSettings, headers: Headers, body: Buffer): Verified {
  const signature = header(headers, "x-hub-signature-256");
  if (!signature || !same(signature, `sha256=${hmacHex(task.secret, body)}`))
    throw new Refusal(401, "Missing or wrong X-Hub-Signature-256.");
  if (header(headers, "x-github-event") === "ping") return { kind: "ping" };
  const id = custom(task, headers) ?? header(headers, "x-github-delivery");
  if (!id) throw new Refusal(400, "Missing X-GitHub-Delivery.");
  return { kind: "delivery", deliveryId: id, payload: json(body) };
}

/**
 * PagerDuty v3: `X-PagerDuty-Signature: v1=<hex>[,v1=<hex>…]` (one per secret while one is rotated),
 * HMAC-SHA256 of the body; any one matching is enough. The event's id is the delivery's.
 */
function verifyPagerduty(task: WebhookSettings, headers: Headers, body: Buffer): Verified {
  const expected = `v1=${hmacHex(task.secret, body)}`;
  const signatures = (header(headers, "x-pagerduty-signature") ?? "").split(",").map((s) => s.trim());
  // Every candidate is compared, so the time taken does not say which one matched.
  const matched = signatures.reduce((found, signature) => same(signature, expected) || found, false);
  if (!matched) throw new Refusal(401, "Missing or wrong X-PagerDuty-Signature.");
  const payload = json(body) as { event?: { id?: unknown; event_type?: unknown } };
  if (payload?.event?.event_type === "pagey.ping") return { kind: "ping" };
  const id = custom(task, headers) ?? (typeof payload?.event?.id === "string" ? payload.event.id : undefined);
  if (!id) throw new Refusal(400, "Not a PagerDuty v3 webhook (no event.id).");
  return { kind: "delivery", deliveryId: id, payload };
}

/**
 * Generic (CAIPE's generic_hmac, with the timestamp always bound): `X-Webhook-Timestamp: <unix s>` and
 * `X-Webhook-Signature-256: sha256=<HMAC-SHA256 of "<timestamp>.<body>">`; a timestamp outside the
 * replay window is refused. The id is the dedupe header's, else the signature (one per body and time).
 */
function verifyGeneric(
  task: WebhookSettings,
  headers: Headers,
  body: Buffer,
  context: VerifyContext,
): Verified {
  const timestamp = header(headers, "x-webhook-timestamp");
  const signature = header(headers, "x-webhook-signature-256");
  if (!timestamp || !signature)
    throw new Refusal(401, "Missing X-Webhook-Timestamp or X-Webhook-Signature-256.");
  if (!same(signature, `sha256=${hmacHex(task.secret, timestamp, ".", body)}`))
    throw new Refusal(401, "Wrong X-Webhook-Signature-256.");
  const seconds = Number(timestamp);
  if (!Number.isFinite(seconds) || Math.abs(context.now() / 1000 - seconds) > context.replayWindowSeconds)
    throw new Refusal(
      401,
      `X-Webhook-Timestamp is outside the ±${context.replayWindowSeconds} s replay window (WEBHOOK_REPLAY_WINDOW_SECONDS).`,
    );
  return { kind: "delivery", deliveryId: custom(task, headers) ?? signature, payload: json(body) };
}

function custom(task: WebhookSettings, headers: Headers): string | undefined {
  return task.dedupHeader ? header(headers, task.dedupHeader) : undefined;
}
