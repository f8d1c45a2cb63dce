import { readFileSync, unwatchFile, watchFile } from "node:fs";
import type { Logger } from "@switchboard/common";
import { SwitchboardError } from "@switchboard/common";
import { PolicyEngine } from "./engine.js";
import { type PolicyTexts, parsePolicies } from "./policy-set.js";
import { rbacPolicies } from "./rbac.js";
import type { AuthzSettings } from "./settings.js";

/** How often the policy file is looked at: a Kubernetes ConfigMap update swaps a symlink, which only polling sees. */
const POLL_MS = 2_000;

export interface LoadedPolicies {
  engine: PolicyEngine;
  /** Stops watching the file. */
  close(): void;
}

/**
 * The agent's policies: the file's and the role settings', in one engine. A file that cannot be
 * read or that Cedar refuses stops the start with Cedar's message; later, a running agent keeps
 * its last good policies and logs why it refused the new file. Undefined when nothing is set.
 */
export function loadPolicies(settings: AuthzSettings, logger: Logger): LoadedPolicies | undefined {
  const { policyFile, rbac } = settings;
  if (!policyFile && !rbac) return undefined;
  const fixed: PolicyTexts = rbac ? rbacPolicies(rbac) : {};
  const read = (): PolicyTexts => ({ ...fixed, ...(policyFile ? readPolicyFile(policyFile) : {}) });
  const engine = new PolicyEngine(read());
  if (!policyFile) return { engine, close: () => {} };
  const reload = () => {
    try {
      engine.replace(read());
      logger.info({ file: policyFile }, "authorization policies reloaded");
    } catch (error) {
      logger.error(
        { file: policyFile, reason: error instanceof Error ? error.message : String(error) },
        "the changed policy file was refused; the previous policies stay in force",
      );
    }
  };
  watchFile(policyFile, { interval: POLL_MS, persistent: false }, (now, before) => {
    if (now.mtimeMs !== before.mtimeMs || now.size !== before.size || now.ino !== before.ino) reload();
  });
  return { engine, close: () => unwatchFile(policyFile) };
}

function readPolicyFile(file: string): PolicyTexts {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const reason = (error as { code?: string }).code ?? String(error);
    throw new SwitchboardError(
      "authz.policy",
      "user",
      `AUTHZ_POLICY_FILE=${file} cannot be read (${reason}): point it at a Cedar policy file.`,
    );
  }
  return parsePolicies(text, `AUTHZ_POLICY_FILE (${file})`);
}
