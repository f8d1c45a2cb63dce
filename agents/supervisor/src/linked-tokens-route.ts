import { type AgentHost, callerOf, type RouteHandler } from "@switchboard/agent-runtime";
import type { Roster, SubagentConfig } from "@switchboard/delegation";

type Request = Parameters<RouteHandler>[0];

/** How long the supervisor waits for one subagent's answer about linked tokens. */
const LINKED_TIMEOUT_MS = 5_000;

/** One agent's GET /linked-tokens (agent-runtime's LinkedTokensAnswer). */
export interface AgentLinkedTokens {
  agent: string;
  enabled: boolean;
  vendor?: { vendor: string; title: string; hint: string };
  linked?: Array<{ vendor: string; title: string; linkedAt: string }>;
  reason?: string;
}

/** An agent not in the answer, and why: never left out silently. */
interface Unavailable {
  agent: string;
  reason: string;
}

/**
 * The caller's linked tokens across the fleet, on the supervisor, so the web chat talks to one
 * endpoint: GET /linked-tokens gathers each subagent's (asked in parallel with the caller's own
 * token, 5 s each); PUT (or POST) and DELETE /linked-tokens/:vendor are passed on to the subagents
 * that take that vendor's tokens, each of which stores or removes the token itself. Which agent takes
 * which vendor is configuration (SubagentConfig.vendor: its ENABLE_ name or <AGENT>_AGENT_LINKED_VENDOR),
 * never what an agent answers about itself: one that claims another vendor is listed without it and
 * is sent nothing. The supervisor keeps no token: it passes the body on and answers what the
 * subagents said.
 */
export function serveFleetLinkedTokens(host: Pick<AgentHost, "routes" | "mayReach">, roster: Roster): void {
  const { routes, mayReach } = host;
  routes.get("/linked-tokens", async (req, res) => {
    const { agents, unavailable } = await gather(req, roster, mayReach);
    // The configured wiring (URLs above all) stays on the supervisor.
    res.json({ agents: agents.map(({ config: _config, ...agent }) => agent), unavailable });
  });
  const change =
    (method: "PUT" | "DELETE"): RouteHandler =>
    async (req, res) => {
      const vendor = String(req.params.vendor);
      const { agents, unavailable } = await gather(req, roster, mayReach);
      const takers = agents.filter((agent) => agent.vendor?.vendor === vendor);
      if (takers.length === 0) {
        const known = agents.filter((agent) => agent.vendor).map((agent) => agent.vendor?.vendor);
        return res.status(404).json({
          error: `No agent takes ${vendor} tokens${known.length ? ` (these do: ${[...new Set(known)].join(", ")})` : ""}.`,
          unavailable,
        });
      }
      const answers = await Promise.all(
        takers.map(async ({ agent, config }) => {
          const answer = await ask(
            config,
            `/linked-tokens/${encodeURIComponent(vendor)}`,
            req,
            method,
            roster,
          );
          return { agent, ...answer };
        }),
      );
      const failed = answers.filter((answer) => answer.status >= 400);
      const status = failed.length === answers.length ? (failed[0]?.status ?? 502) : 200;
      res.status(status).json({
        vendor,
        agents: answers.map(({ agent, status: code, body }) => ({ agent, status: code, ...body })),
        ...(status >= 400 ? { error: String(failed[0]?.body.error ?? "No agent stored the change.") } : {}),
      });
    };
  routes.put("/linked-tokens/:vendor", change("PUT"));
  routes.post("/linked-tokens/:vendor", change("PUT"));
  routes.delete("/linked-tokens/:vendor", change("DELETE"));
}

/** Each subagent's answer for the caller: only those the caller may reach (as GET /subagents lists). */
async function gather(
  req: Request,
  roster: Roster,
  mayReach: AgentHost["mayReach"],
): Promise<{ agents: Array<AgentLinkedTokens & { config: SubagentConfig }>; unavailable: Unavailable[] }> {
  const agents: Array<AgentLinkedTokens & { config: SubagentConfig }> = [];
  const unavailable: Unavailable[] = [];
  const caller = await callerOf(req);
  const reachable = roster.list().filter(({ config }) => mayReach(config.name, caller));
  await Promise.all(
    reachable.map(async ({ config, status, reason }) => {
      if (status !== "available") {
        unavailable.push({ agent: config.name, reason: `${status}${reason ? `: ${reason}` : ""}` });
        return;
      }
      const answer = await ask(config, "/linked-tokens", req, "GET", roster);
      if (answer.status === 200 && typeof answer.body.enabled === "boolean") {
        agents.push(configured(config, answer.body as unknown as AgentLinkedTokens));
      } else {
        unavailable.push({
          agent: config.name,
          reason: String(answer.body.error ?? `HTTP ${answer.status}`),
        });
      }
    }),
  );
  agents.sort((a, b) => a.agent.localeCompare(b.agent));
  unavailable.sort((a, b) => a.agent.localeCompare(b.agent));
  return { agents, unavailable };
}

/**
 * An agent's answer as configuration allows it: named as the supervisor names it, and with a vendor
 * only when it is the one the agent is configured for (an agent that claims another is said to).
 */
function configured(
  config: SubagentConfig,
  answer: AgentLinkedTokens,
): AgentLinkedTokens & { config: SubagentConfig } {
  const claimed = answer.vendor?.vendor;
  if (claimed === undefined || claimed === config.vendor) return { ...answer, agent: config.name, config };
  return {
    agent: config.name,
    enabled: false,
    reason: `it says it takes ${claimed} tokens, but the supervisor passes ${claimed} tokens only to the agents configured for them (ENABLE_${claimed.toUpperCase()}, or <AGENT>_AGENT_LINKED_VENDOR=${claimed})`,
    config,
  };
}

/**
 * One request to a subagent, at its configured URL, on the caller's behalf (a token signed for that
 * agent alone) and, for a link, with the body as sent.
 */
async function ask(
  config: SubagentConfig,
  path: string,
  req: Request,
  method: "GET" | "PUT" | "DELETE",
  roster: Roster,
): Promise<{ status: number; body: Record<string, unknown> }> {
  try {
    const token = await roster.bearerFor(config, await callerOf(req));
    const response = await fetch(`${config.url}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(method === "PUT" ? { "content-type": "application/json" } : {}),
      },
      ...(method === "PUT" ? { body: JSON.stringify(req.body ?? {}) } : {}),
      signal: AbortSignal.timeout(LINKED_TIMEOUT_MS),
    });
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    return { status: response.status, body };
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    return {
      status: 502,
      body: {
        error: timedOut
          ? `no answer within ${LINKED_TIMEOUT_MS / 1000} s`
          : `unreachable: ${error instanceof Error ? error.message : String(error)}`,
      },
    };
  }
}
