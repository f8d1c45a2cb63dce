import { createHmac } from "node:crypto";

export interface SignedRequestOptions {
  signingSecret: string;
  /** Seconds since the epoch; now by default (an old one is a replay Slack's SDKs refuse). */
  timestamp?: number;
  /** Sent instead of the right signature: a forged request. */
  signature?: string;
}

/**
 * Sends what Slack's Events API sends to an app's request URL: a JSON event callback, or an
 * interaction as a form with its JSON in `payload`, signed with the app's signing secret
 * (`v0=` HMAC-SHA256 of `v0:<timestamp>:<body>`, in x-slack-signature and x-slack-request-timestamp).
 */
export function signedRequest(
  url: string,
  body: unknown,
  options: SignedRequestOptions & { kind?: "event" | "interaction"; raw?: string },
): Promise<Response> {
  const interaction = options.kind === "interaction";
  const text =
    options.raw ??
    (interaction ? new URLSearchParams({ payload: JSON.stringify(body) }).toString() : JSON.stringify(body));
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const signature =
    options.signature ??
    `v0=${createHmac("sha256", options.signingSecret).update(`v0:${timestamp}:${text}`).digest("hex")}`;
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": interaction ? "application/x-www-form-urlencoded" : "application/json",
      "x-slack-request-timestamp": String(timestamp),
      "x-slack-signature": signature,
    },
    body: text,
  });
}
