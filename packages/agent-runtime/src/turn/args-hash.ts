import { createHash } from "node:crypto";
import canonicalize from "canonicalize";

/**
 * What an approval is bound to: SHA-256 of the RFC 8785 canonical JSON of the tool's name and every
 * argument it runs with. The same arguments in any key order hash alike; any other value does not.
 */
export function argsHash(tool: string, args: Record<string, unknown>): string {
  return (
    createHash("sha256")
      // Through JSON first: what is sent is JSON, so an undefined field is no field at all.
      .update(canonicalize({ tool, args: JSON.parse(JSON.stringify(args)) }) ?? "")
      .digest("hex")
  );
}
