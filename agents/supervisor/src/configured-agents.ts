import { setTimeout as sleep } from "node:timers/promises";
import { requestJson } from "@switchboard/agent-runtime";
import type { Logger } from "@switchboard/common";
import { enableVariableFor, sameAgentName } from "@switchboard/contract";
import type { Roster, SubagentConfig } from "@switchboard/delegation";
import { readListing } from "./configured-agents-listing.js";
import type { ConfiguredAgentsSettings } from "./env.js";

/** How long one read of the listing may take before it counts as failed. */
const LISTING_TIMEOUT_MS = 10_000;

export interface ConfiguredAgentsOptions {
  settings: ConfiguredAgentsSettings;
  /** The ENABLE_<AGENT> agents: always on the roster, and they win a name a configured agent also has. */
  fromEnv: SubagentConfig[];
  roster: Roster;
  logger: Logger;
  /** The supervisor's own name, which no configured agent may take. */
  self: string;
}

/**
 * Keeps the agents configured at DYNAMIC_AGENTS_URL (agents/dynamic-agents) on the roster beside
 * the ENABLE_<AGENT> ones: reads `GET <url>/agents` now and every DYNAMIC_AGENTS_POLL_SECONDS, so an
 * agent made there joins and a deleted one leaves without a restart (Roster.set leaves the others
 * untouched). They are called as any subagent is: a hop token for each alone, the same `reach`
 * policy. A listing that cannot be read or is not one keeps the last good set and is logged, never
 * fatal. Returns what stops the polling.
 */
export function joinConfiguredAgents(options: ConfiguredAgentsOptions): () => void {
  const stop = new AbortController();
  void poll(options, stop.signal);
  return () => stop.abort();
}

async function poll(
  { settings, fromEnv, roster, logger, self }: ConfiguredAgentsOptions,
  signal: AbortSignal,
): Promise<void> {
  const listingUrl = `${settings.url}/agents`;
  // Each said once, not on every poll: names an ENABLE_ agent took, and entries refused last time.
  const shadowed = new Set<string>();
  let refusedBefore = new Set<string>();
  let failures = 0;
  let lastReason: string | undefined;
  while (!signal.aborted) {
    try {
      const body = await requestJson<unknown>({ url: listingUrl, timeoutMs: LISTING_TIMEOUT_MS });
      const { agents, refused } = readListing(body, settings.url, self);
      if (signal.aborted) return;
      for (const line of refused) if (!refusedBefore.has(line)) logger.warn({ url: listingUrl }, line);
      refusedBefore = new Set(refused);
      const configured = agents.filter((agent) => {
        const twin = fromEnv.find((enabled) => sameAgentName(enabled.name, agent.name));
        if (twin && !shadowed.has(agent.name)) {
          shadowed.add(agent.name);
          logger.warn(
            { subagent: agent.name, url: agent.url },
            `The configured agent "${agent.name}" at DYNAMIC_AGENTS_URL is not routed to: ${enableVariableFor(twin.name)} names an agent of the same name, which wins (rename one of them to route to both).`,
          );
        }
        return !twin;
      });
      roster.set([...fromEnv, ...configured]);
      if (failures > 0)
        logger.info({ url: listingUrl, agents: configured.length }, "read the configured agents again");
      failures = 0;
      lastReason = undefined;
    } catch (error) {
      if (signal.aborted) return;
      failures += 1;
      const reason = describe(error);
      // Said when it starts failing or fails otherwise, then every tenth time: visible, not noisy.
      if (reason !== lastReason || failures % 10 === 0) {
        logger.warn(
          { url: listingUrl, reason, attempt: failures },
          `Cannot read the configured agents at ${listingUrl} (DYNAMIC_AGENTS_URL): ${reason}. Keeping the ones known; trying again every ${settings.pollMs / 1000} s.`,
        );
      }
      lastReason = reason;
    }
    await sleep(settings.pollMs, undefined, { signal, ref: false }).catch(() => undefined);
  }
}

function describe(error: unknown): string {
  if (error instanceof SyntaxError) return "its answer is not JSON";
  if (!(error instanceof Error)) return String(error);
  // fetch's own message is "fetch failed": what failed is in its cause (ECONNREFUSED, a timeout).
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const code = (cause as { code?: unknown } | undefined)?.code;
  if (cause) return `${error.message}: ${typeof code === "string" ? code : cause.message}`;
  return error.name === "TimeoutError" ? `no answer within ${LISTING_TIMEOUT_MS / 1000} s` : error.message;
}
