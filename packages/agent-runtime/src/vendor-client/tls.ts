/**
 * TLS to a vendor's server. Verification is always on unless the operator turns it off for that one
 * vendor with CAIPE's setting (ARGOCD_VERIFY_SSL=false, ATLASSIAN_VERIFY_SSL=false): a server with an
 * internal CA is better served by NODE_EXTRA_CA_CERTS, which Node reads at start-up for every client.
 */
import { Agent as HttpsAgent } from "node:https";
import type { Logger } from "@switchboard/common";
import type { Dispatcher } from "undici";
import { undici } from "../network/undici.js";

/** Whether `variable` (default true) leaves certificate verification on; anything but false/0/no does. */
export function verifiesTls(env: NodeJS.ProcessEnv, variable: string): boolean {
  const value = env[variable]?.trim().toLowerCase();
  return !value || !["false", "0", "no", "off"].includes(value);
}

/** Says loudly, once at start-up, that a vendor's certificates are not checked. */
export function warnIfTlsUnverified(
  env: NodeJS.ProcessEnv,
  variable: string,
  vendor: string,
  logger: Logger,
): void {
  if (verifiesTls(env, variable)) return;
  logger.warn(
    { setting: variable },
    `${variable}=false: TLS certificates of ${vendor} are NOT verified, so anyone on the network path can ` +
      `read and change its traffic, credentials included. Trust your CA with NODE_EXTRA_CA_CERTS=/path/to/ca.pem ` +
      `and remove ${variable}.`,
  );
}

/** For clients on axios (jira.js, confluence.js): an agent that skips verification, or none. */
export function httpsAgentFor(verify: boolean): HttpsAgent | undefined {
  return verify ? undefined : new HttpsAgent({ rejectUnauthorized: false, keepAlive: true });
}

/** For clients on fetch (requestJson): a dispatcher that skips verification, or none. */
export function dispatcherFor(verify: boolean): Dispatcher | undefined {
  return verify ? undefined : new (undici().Agent)({ connect: { rejectUnauthorized: false } });
}
