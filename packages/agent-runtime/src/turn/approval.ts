import type { Access } from "../authz/access.js";
import type { Principal } from "../authz/principal.js";
import { type PendingInterrupt, pendingChanges, questionFor } from "./interrupts.js";

/**
 * Whether an answer given by someone other than the turn's caller (a verified approver, see
 * auth/bearer.ts' APPROVER_HEADER) may decide the changes the turn waits on: each is decided here,
 * where the change would run, as the `approve` action on the approver's own identity with the
 * caller as `resource.requester`. Undefined: they may (or nothing waits on a decision). Otherwise
 * the question asked again, led by why the answer did not count (a2a-client's readQuestion reads
 * that line): nothing runs and the caller can still answer. Refusals are audited by Access.
 */
export async function refusedApproval(
  access: Access,
  who: { caller: Principal; approver: Principal },
  pending: PendingInterrupt[],
  contextId: string,
): Promise<string | undefined> {
  const changes = pendingChanges(pending);
  if (changes.length === 0) return undefined;
  for (const change of changes) {
    const refusal = await access.checkApproval(who.approver, who.caller, change, contextId);
    if (refusal) return `${refusal}\n${questionFor(pending)}`;
  }
  return undefined;
}
