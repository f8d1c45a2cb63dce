import type { LookupFunction } from "node:net";
import type { buildConnector } from "undici";
import { guardedConnector } from "../network/guarded-connector.js";
import {
  publicOnlyLookup as guardedLookup,
  isPublicAddress,
  type LookupAll,
  type NetworkGuardRule,
  namesPrivateHost,
} from "../network/network-guard.js";

export { isPublicAddress };

/** The setting that lets push notifications reach loopback, link-local and private networks. */
export const ALLOW_PRIVATE_WEBHOOKS = "PUSH_NOTIFICATIONS_ALLOW_PRIVATE_NETWORKS";

/** The error code of a webhook host that resolved only to addresses deliveries may not reach. */
export const PRIVATE_WEBHOOK = "EPRIVATEWEBHOOK";

/** The network guard's rule as push notifications follow it (network/network-guard.ts holds the rule). */
const WEBHOOK_RULE: NetworkGuardRule = {
  what: "push notifications",
  setting: ALLOW_PRIVATE_WEBHOOKS,
  code: PRIVATE_WEBHOOK,
};

/** A webhook's host and path, for logs and errors: never its query, userinfo or fragment. */
export function webhookLabel(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return "(not a URL)";
  }
}

/**
 * What is wrong with a push-notification URL before anything is stored or sent: not http(s), or a
 * host that names a non-public address outright (an IP literal, `localhost`). Names resolving to
 * such addresses are caught when a delivery connects (see {@link publicOnlyLookup}).
 */
export function badWebhookUrl(url: unknown, allowPrivate: boolean): string | undefined {
  if (typeof url !== "string") return "the push notification URL must be a string";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "the push notification URL is not a valid absolute URL";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    return `the push notification URL must be http or https, not ${parsed.protocol.slice(0, -1)}`;
  if (allowPrivate) return undefined;
  if (namesPrivateHost(parsed.hostname)) {
    return (
      `the push notification URL's host ${parsed.host} is on a loopback, link-local or private network; ` +
      `deliveries go only to public addresses unless ${ALLOW_PRIVATE_WEBHOOKS}=true`
    );
  }
  return undefined;
}

/**
 * A `lookup` for sockets that deliver push notifications: it resolves as usual and keeps only public
 * addresses, so a name that points at an internal address (at registration or, rebound, later)
 * fails to connect with {@link PRIVATE_WEBHOOK}.
 */
export function publicOnlyLookup(resolve?: LookupAll): LookupFunction {
  return guardedLookup(WEBHOOK_RULE, resolve);
}

/**
 * The `connect` of the sockets that deliver push notifications: names, IP literals and the peer
 * actually reached are all held to the rule when connecting (see guardedConnector).
 */
export function webhookConnector(resolve?: LookupAll): buildConnector.connector {
  return guardedConnector(WEBHOOK_RULE, resolve ? { resolve } : {});
}
