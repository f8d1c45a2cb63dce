import { type AgentHost, callerOf, type Memory, type User } from "@switchboard/agent-runtime";
import type { Roster } from "@switchboard/delegation";

/** How long the supervisor waits for one subagent. */
const FLEET_TIMEOUT_MS = 5_000;

/** A subagent that did not answer, and why: never left out silently. */
interface Unavailable {
  agent: string;
  reason: string;
}

type Answer<T> = { agent: string; body: T } | Unavailable;

/**
 * The user's memories and data across the fleet, on the supervisor: GET /memories (its own and
 * each subagent's, each memory naming its agent), DELETE /memories/:id?agent=<name> (one memory
 * on the agent that keeps it), DELETE /memories and DELETE /me ("forget me": conversations, tasks
 * and memories everywhere; audit trails stay). Each subagent is asked in parallel on the caller's
 * behalf (a token signed for it alone), so each decides whose data it is; one that is down is listed under `unavailable`.
 */
export function serveFleetMemories(
  host: Pick<AgentHost, "routes" | "userData" | "mayReach">,
  roster: Roster,
): void {
  const { userData, mayReach } = host;
  const own = userData.agent;

  /**
   * Sends one request to every available subagent on the caller's behalf (a token signed for it
   * alone); with `reachableOnly`, only to those the caller may reach (a listing shows no agent
   * GET /subagents hides). Erasing asks every agent: data kept where a user may no longer go is
   * still theirs to erase.
   */
  const everySubagent = async <T>(
    method: string,
    path: string,
    user: User,
    { reachableOnly = false } = {},
  ): Promise<Answer<T>[]> =>
    Promise.all(
      roster
        .list()
        .filter(({ config }) => !reachableOnly || mayReach(config.name, user))
        .map(async ({ config, status, reason }): Promise<Answer<T>> => {
          if (status !== "available")
            return { agent: config.name, reason: `${status}${reason ? `: ${reason}` : ""}` };
          return ask<T>(config.name, config.url, method, path, await roster.bearerFor(config, user));
        }),
    );

  host.routes.get("/memories", async (req, res) => {
    const user = await callerOf(req);
    const answers = await everySubagent<{ memories?: Memory[] }>("GET", "/memories", user, {
      reachableOnly: true,
    });
    const memories = (await userData.listMemories(user)).map((memory) => ({ ...memory, agent: own }));
    const unavailable: Unavailable[] = [];
    for (const answer of answers) {
      if ("body" in answer && Array.isArray(answer.body.memories)) {
        memories.push(...answer.body.memories.map((memory) => ({ ...memory, agent: answer.agent })));
      } else if (!("body" in answer)) unavailable.push(answer);
    }
    memories.sort((a, b) => b.usedAt.localeCompare(a.usedAt));
    res.json({ agent: own, memories, unavailable });
  });

  host.routes.delete("/memories/:id", async (req, res) => {
    const user = await callerOf(req);
    const id = String(req.params.id);
    const agent = typeof req.query.agent === "string" && req.query.agent ? req.query.agent : own;
    if (agent === own) {
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(id) || !(await userData.forgetMemory(user, id))) {
        return res.status(404).json({ error: `You have no memory ${id.slice(0, 80)} on the ${own} agent.` });
      }
      return res.json({ agent: own, deleted: id });
    }
    const subagent = roster.get(agent);
    // An agent kept from this caller is answered as one not enabled, as routing answers it.
    if (!subagent || !mayReach(subagent.config.name, user)) {
      return res
        .status(404)
        .json({ error: `No agent named "${agent}" is enabled: use the agent GET /memories names.` });
    }
    const answer = await ask<Record<string, unknown>>(
      subagent.config.name,
      subagent.config.url,
      "DELETE",
      `/memories/${encodeURIComponent(id)}`,
      await roster.bearerFor(subagent, user),
    );
    if ("body" in answer) return res.status(answer.body.error ? 404 : 200).json(answer.body);
    res.status(502).json({ error: `The ${agent} agent could not be asked: ${answer.reason}` });
  });

  host.routes.delete("/memories", async (req, res) => {
    const user = await callerOf(req);
    const answers = await everySubagent<{ deleted?: number }>("DELETE", "/memories", user);
    res.json({
      agent: own,
      deleted: [
        { agent: own, deleted: await userData.forgetMemories(user) },
        ...answers
          .filter((a) => "body" in a)
          .map((a) => ({ agent: a.agent, deleted: (a as { body: { deleted?: number } }).body.deleted ?? 0 })),
      ],
      unavailable: answers.filter((answer) => !("body" in answer)),
    });
  });

  host.routes.delete("/me", async (req, res) => {
    const user = await callerOf(req);
    const answers = await everySubagent<Record<string, unknown>>("DELETE", "/me", user);
    res.json({
      agent: own,
      forgotten: [
        await userData.forgetUser(user),
        ...answers.flatMap((answer) => ("body" in answer ? [answer.body] : [])),
      ],
      unavailable: answers.filter((answer) => !("body" in answer)),
    });
  });
}

async function ask<T>(
  agent: string,
  url: string,
  method: string,
  path: string,
  token: string | undefined,
): Promise<Answer<T>> {
  try {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(FLEET_TIMEOUT_MS),
    });
    const body = (await response.json().catch(() => ({}))) as T & { error?: string };
    if (!response.ok && response.status !== 404)
      return { agent, reason: body.error ?? `HTTP ${response.status}` };
    return { agent, body };
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    return {
      agent,
      reason: timedOut
        ? `no answer within ${FLEET_TIMEOUT_MS / 1000} s`
        : `unreachable: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
