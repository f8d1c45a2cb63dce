import { TEST_AUDIT_HMAC_KEY } from "@switchboard-testing/test-mongo";
import type { ChainedEntry } from "../src/audit/entry.js";
import { type AuditKey, readAuditKey } from "../src/audit/key.js";
import { type TrailProblem, verifyTrail } from "../src/audit/verify-trail.js";

/** The key test agents on the test MongoDB link their lines with (testMongoEnv's). */
export const testAuditKey: AuditKey = readAuditKey(TEST_AUDIT_HMAC_KEY, "AUDIT_HMAC_KEY");

/** What the verifier finds in lines read in order (no anchor, no retention): [] when intact. */
export function chainProblems(lines: ChainedEntry[], keys: AuditKey[] = [testAuditKey]): TrailProblem[] {
  return verifyTrail({
    agent: lines[0]?.agent ?? "",
    exists: true,
    lines: lines.map((line) => ({ position: line.seq, line })),
    ttlIndexes: [],
    anchors: [],
    anchored: false,
    keys: new Map(keys.map((key) => [key.id, key])),
    now: new Date(),
  }).problems;
}
