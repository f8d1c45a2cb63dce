import { setTimeout as sleep } from "node:timers/promises";
import { type Principal, requestJson } from "@switchboard/agent-runtime";
import type { Logger } from "@switchboard/common";
import { DYNAMIC_AGENTS, enableVariableFor, sameAgentName } from "@switchboard/contract";
import type { HopCredentials, Roster, SubagentConfig } from "@switchboard/delegation";
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
  /** What the listing is read with: the supervisor's directory token for the host (none without sign-in). */
  credentials: Pick<HopCredentials, "directoryBearer">;
}

/** The configured agents as they join the roster. */
export interface ConfiguredAgents {
  /**
   * Whether a configured agent is for `principal`: a team's agent for its teams' members only (the
   * host's directory says which), any other agent for everyone (the policies decide the rest).
   */
  isFor(agent: string, principal: Principal): boolean;
  /** Stops reading the listing. */
  stop(): void;
}

/**
 * Keeps the agents configured at DYNAMIC_AGENTS_URL (agents/dynamic-agents) on the roster beside
 * the ENABLE_<AGENT> ones: reads `GET <url>/agents` now and every DYNAMIC_AGENTS_POLL_SECONDS, so an
 * agent made there joins and a deleted one leaves without a restart (Roster.set leaves the others
 * untouched). They are called as any subagent is: a hop token for each alone, the same `reach`
 * policy. The listing is read with the supervisor's directory token, so a team's agents are listed
 * too, each with its teams: the supervisor shows and routes to them only for their members. A
 * listing that cannot be read or is not one keeps the last good set and is logged, never fatal.
 */
export function joinConfiguredAgents(options: ConfiguredAgentsOptions): ConfiguredAgents {
  const stop = new AbortController();
  let teams = new Map<string, string[]>();
  void poll(options, stop.signal, (read) => {
    teams = read;
  });
  return {
    isFor(agent, principal) {
      const readers = teams.get(agent);
      return (
        !readers || (principal.authenticated && principal.groups.some((group) => readers.includes(group)))
      );
    },
    stop: () => stop.abort(),
  };
}

async function poll(
  { settings, fromEnv, roster, logger, self, credentials }: ConfiguredAgentsOptions,
  signal: AbortSignal,
  onTeams: (teams: Map<string, string[]>) => void,
): Promise<void> {
  const listingUrl = `${settings.url}/agents`;
  // Each said once, not on every poll: names an ENABLE_ agent took, and entries refused last time.
  const shadowed = new Set<string>();
  let refusedBefore = new Set<string>();
  let failures = 0;
  let lastReason: string | undefined;
  while (!signal.aborted) {
    try {
      const bearer = await credentials.directoryBearer(DYNAMIC_AGENTS);
      const body = await requestJson<unknown>({
        url: listingUrl,
        timeoutMs: LISTING_TIMEOUT_MS,
        // The directory token goes to DYNAMIC_AGENTS_URL only, never where a redirect points.
        redirect: "manual",
        ...(bearer ? { headers: { authorization: `Bearer ${bearer}` } } : {}),
      });
      const { agents, teams, refused } = readListing(body, settings.url, self);
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
      // Who each is for first: an agent joins the roster already kept from those it is not for.
      onTeams(teams);
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
