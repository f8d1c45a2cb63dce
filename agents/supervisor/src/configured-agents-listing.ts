import { DYNAMIC_AGENTS, envPrefixFor, sameAgentName } from "@switchboard/contract";
import type { SubagentConfig } from "@switchboard/delegation";
import { assertValidAgentName } from "@switchboard/utils";
import { z } from "zod";

/** More agents than one listing may name: taken for a broken or hostile host, and refused whole. */
const MAX_AGENTS = 1000;

const Listing = z.object({ agents: z.array(z.unknown()).max(MAX_AGENTS) });
const Entry = z.object({
  id: z.string(),
  url: z.string(),
  // A team's agent: the groups whose members it is for (absent: everyone the policies let in).
  teams: z.array(z.string().max(256)).max(100).optional(),
});

/** How log lines name where a configured agent came from (the roster's messages). */
const CONFIGURED_BY = {
  enabled: "DYNAMIC_AGENTS_URL's listing",
  url: "the URL DYNAMIC_AGENTS_URL's listing gives",
};

/** What one listing gave: the agents to route to, who each team's agent is for, and each entry refused with why. */
export interface ListingRead {
  agents: SubagentConfig[];
  /** Agent name → the groups whose members it is for; an agent not here is for everyone. */
  teams: Map<string, string[]>;
  refused: string[];
}

/**
 * Reads `GET <DYNAMIC_AGENTS_URL>/agents` (`{ agents: [{ id, name, description, url, teams? }] }`) as
 * hostile input: an entry is followed only when its id is an agent name (the one its card carries,
 * its hop tokens' audience and the supervisor's policies' resource), not the supervisor's own nor
 * one an earlier entry took, and its url is a plain URL on DYNAMIC_AGENTS_URL's own origin (a
 * listing cannot send the supervisor, and the tokens it signs, anywhere else). Other entries are
 * refused one by one; a listing that is not one throws, naming what is wrong.
 */
export function readListing(body: unknown, base: string, self: string): ListingRead {
  const listing = Listing.safeParse(body);
  if (!listing.success) {
    throw new Error(
      `it is not { "agents": [{ "id", "name", "description", "url" }] } with at most ${MAX_AGENTS} agents`,
    );
  }
  const agents: SubagentConfig[] = [];
  const teams = new Map<string, string[]>();
  const refused: string[] = [];
  for (const [index, raw] of listing.data.agents.entries()) {
    const read = readEntry(raw, base, self, agents);
    if ("why" in read) {
      const named = read.id === undefined ? "" : ` (id ${JSON.stringify(read.id.slice(0, 64))})`;
      refused.push(`Refusing entry ${index} of DYNAMIC_AGENTS_URL's listing${named}: ${read.why}.`);
    } else {
      agents.push(read.agent);
      if (read.teams) teams.set(read.agent.name, read.teams);
    }
  }
  return { agents, teams, refused };
}

/** One entry as a subagent, or why it is refused. */
function readEntry(
  raw: unknown,
  base: string,
  self: string,
  taken: SubagentConfig[],
): { agent: SubagentConfig; teams?: string[] } | { id?: string; why: string } {
  const entry = Entry.safeParse(raw);
  if (!entry.success)
    return { why: "it needs an id and a url, both strings (and teams, if any, at most 100 group names)" };
  const { id, url, teams } = entry.data;
  const refuse = (why: string) => ({ id, why });
  if (!isAgentName(id))
    return refuse(
      "its id is not an agent name (1-63 lowercase letters, digits, '-' or '_', starting with a letter or digit)",
    );
  if (sameAgentName(id, self)) return refuse("its id is the supervisor's own name");
  const twin = taken.find((agent) => sameAgentName(agent.name, id));
  if (twin) return refuse(`an earlier entry already names the agent "${twin.name}"`);
  const target = URL.canParse(url, base) ? new URL(url, base) : undefined;
  if (!target) return refuse("its url is not a URL");
  const origin = new URL(base).origin;
  if (target.origin !== origin)
    return refuse(
      `its url is on ${target.origin}, not on DYNAMIC_AGENTS_URL's origin ${origin}: only that host's agents are followed`,
    );
  if (target.username || target.password) return refuse("its url carries a user name or password");
  if (target.search || target.hash) return refuse("its url carries a query or a fragment");
  const agent: SubagentConfig = {
    name: id,
    prefix: envPrefixFor(id),
    url: `${target.origin}${target.pathname.replace(/\/+$/, "")}`,
    // Its hop tokens are for it alone; a configured agent takes no vendor's linked tokens but its own.
    vendor: id,
    forwardUserToken: false,
    configuredBy: CONFIGURED_BY,
    // A team's agent shows its card only to its members and to the supervisor reading the directory.
    directory: DYNAMIC_AGENTS,
  };
  return teams ? { agent, teams } : { agent };
}

function isAgentName(id: string): boolean {
  try {
    assertValidAgentName(id, "DYNAMIC_AGENTS_URL's listing");
    return true;
  } catch {
    return false;
  }
}
