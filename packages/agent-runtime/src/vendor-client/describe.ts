import { redactSecrets, SwitchboardError } from "@switchboard/common";
import type { VendorFailure } from "./failure.js";

/** What a failure's message names: the vendor, where it was called, and what to check. */
export interface FailureNames {
  /** As people name it: "Jira", "GitHub", "the Petstore API". */
  vendor: string;
  /** Prefix of the error codes: `jira` gives `jira.credentials`, `jira.unreachable`, … */
  code: string;
  /** The API's address as configured. */
  url: string;
  /** The settings that hold the credentials, e.g. "ATLASSIAN_EMAIL and ATLASSIAN_TOKEN". */
  credentials: string;
  /** The setting that holds the address, e.g. "ATLASSIAN_API_URL". */
  address: string;
  /** Added to a refusal (403): what the credentials may lack, e.g. "scope api". */
  permissionHint?: string;
}

/**
 * The one error a failed vendor call becomes. Credentials refused are a `user` error: it ends the
 * turn, since only the settings can fix it. The rest, a permission lacking for this one thing
 * included, are `third-party` errors, which the model reads as the tool's result and can act on
 * (another query, a wait, telling the user what it may not do). Secrets are removed from every
 * message.
 */
export function describeFailure(
  failure: VendorFailure,
  names: FailureNames,
  secrets: Iterable<string> = [],
): SwitchboardError {
  const { kind, status } = failure;
  const detail = failure.detail ? `: ${failure.detail}` : "";
  const on = failure.operation ? ` to ${failure.operation}` : "";
  const [suffix, category, text] = ((): [string, "user" | "third-party", string] => {
    switch (kind) {
      case "credentials":
        return [
          "credentials",
          "user",
          `${names.vendor} refused the credentials (${status ? `HTTP ${status}` : "refused"}${detail}): check ${names.credentials}; they may be mistyped, expired or revoked.`,
        ];
      case "forbidden":
        return [
          "forbidden",
          "third-party",
          `${names.vendor} refused the request${on} (${status ? `HTTP ${status}` : "not allowed"}${detail}): the credentials in ${names.credentials} lack the permission${names.permissionHint ? ` (${names.permissionHint})` : ""}.`,
        ];
      case "not-found":
        return [
          "not-found",
          "third-party",
          `${names.vendor} answered 404 Not Found${on ? ` for ${failure.operation}` : ""}${detail}: it does not exist, or the credentials cannot see it.`,
        ];
      case "rate-limited": {
        const wait =
          failure.retryAfterMs !== undefined
            ? `try again in ${Math.ceil(failure.retryAfterMs / 1000)} s`
            : "try again later";
        return [
          "rate-limited",
          "third-party",
          `${names.vendor} is limiting the rate of requests (${status ? `HTTP ${status}` : "rate limited"}${detail}): ${wait}.`,
        ];
      }
      case "unreachable":
        return [
          "unreachable",
          "third-party",
          `Cannot reach ${names.vendor} at ${names.url} (${failure.reason ?? "no answer"}): check ${names.address} and the network (a private CA needs NODE_EXTRA_CA_CERTS).`,
        ];
      case "timeout":
        return [
          "timeout",
          "third-party",
          `${names.vendor} at ${names.url} did not answer in time${status ? ` (HTTP ${status})` : ""}${failure.reason ? ` (${failure.reason})` : ""}: try again, or check ${names.address}.`,
        ];
      case "http":
        return ["http", "third-party", `${names.vendor} answered HTTP ${status}${on}${detail}`];
      default:
        return ["failed", "third-party", `${names.vendor} call failed${on}${detail || ""}`];
    }
  })();
  // A vendor named "the Petstore API" starts a sentence in upper case.
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return new SwitchboardError(`${names.code}.${suffix}`, category, redactSecrets(sentence, secrets));
}
