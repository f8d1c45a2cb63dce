import type { Part } from "@a2a-js/sdk";
import { decisionWord } from "@switchboard/a2a-client";

/** What the user decided about a change they were asked to confirm. */
export type Decision = "approve" | "decline";

/**
 * An explicit decision on a pending change, read from the answering message: a data part
 * `{ "decision": "approve" | "decline" }` (what the web chat's and Slack's buttons and the terminal
 * chat send), or the whole message one of the exact words a2a-client's `decisionWord` knows. Nothing
 * else decides: "ok wait, don't do that" or "yes… no, cancel it" is asked again.
 */
export interface DecisionAnswer {
  decision: Decision;
  /** From a decision part: the hashes of the arguments its sender was shown (see answer-pause.ts). */
  argsHashes?: string[];
}

/** The decision a message makes, or undefined when it makes none (or contradicts itself). */
export function readDecision(parts: readonly Part[] | undefined): DecisionAnswer | undefined {
  const found = new Set<Decision>();
  let argsHashes: string[] | undefined;
  const texts: string[] = [];
  for (const part of parts ?? []) {
    const content = part.content;
    if (content?.$case === "data") {
      const value = content.value as { decision?: unknown; argsHashes?: unknown } | undefined;
      const decision = value?.decision;
      if (decision === "approve" || decision === "decline") found.add(decision);
      else if (decision !== undefined) return undefined;
      if (value?.argsHashes !== undefined) {
        const hashes = value.argsHashes;
        if (!Array.isArray(hashes) || !hashes.every((hash) => typeof hash === "string")) return undefined;
        argsHashes = hashes;
      }
    } else if (content?.$case === "text") texts.push(content.value);
  }
  const text = texts.join("");
  if (text.trim() !== "") {
    const word = decisionWord(text);
    // Words beside a decision part that are not the same decision make it unclear.
    if (word === undefined) return undefined;
    found.add(word);
  }
  const [decision, other] = [...found];
  if (decision === undefined || other !== undefined) return undefined;
  return argsHashes ? { decision, argsHashes } : { decision };
}
