import { type AgentHost, callerOf } from "@switchboard/agent-runtime";
import { sameAgentName } from "@switchboard/contract";
import type { Roster } from "@switchboard/delegation";

/** How long the supervisor waits for one subagent's audit lines. */
const AUDIT_TIMEOUT_MS = 5_000;

type AuditLine = { at: string; agent: string; seq: number } & Record<string, unknown>;

/** An agent whose lines are not in the answer, and why: never left out silently. */
export interface UnavailableAudit {
  agent: string;
  reason: string;
}

/**
 * GET /audit on the supervisor: its own audit lines and each subagent's, gathered across the fleet
 * and merged by time (newest last, at most `limit`). Each subagent is asked in parallel with the
 * caller's identity (a token signed for that agent alone), so every agent decides by its own policy what this caller may read; one that
 * is down, slow or refuses is listed under `unavailable` with why. Filters as on any agent, plus
 * `agent=` for one agent's lines.
 */
export function serveFleetAudit(
  host: Pick<AgentHost, "agent" | "routes" | "audit" | "mayReach">,
  roster: Roster,
): void {
  const { agent, audit, mayReach } = host;
  host.routes.get("/audit", async (req, res) => {
    const parsed = audit.parse(req.query);
    if ("error" in parsed) return res.status(400).json({ error: parsed.error });
    const { query } = parsed;
    const user = await callerOf(req);
    const wanted = (name: string) => !query.agent || sameAgentName(name, query.agent);
    const params = audit.searchParams(query).toString();
    const lines: AuditLine[] = [];
    const unavailable: UnavailableAudit[] = [];
    const refusals: string[] = [];

    const own = wanted(agent) ? audit.read(user, query) : undefined;
    // Only agents this caller may reach, as GET /subagents lists them.
    const subagents = roster
      .list()
      .filter(({ config }) => wanted(config.name) && mayReach(config.name, user));
    const answers = await Promise.all(
      subagents.map(async ({ config, status, reason }) => {
        if (status !== "available") {
          return { agent: config.name, reason: `${status}${reason ? `: ${reason}` : ""}` };
        }
        try {
          const token = await roster.bearerFor(config, user);
          const response = await fetch(`${config.url}/audit${params ? `?${params}` : ""}`, {
            headers: token ? { authorization: `Bearer ${token}` } : {},
            signal: AbortSignal.timeout(AUDIT_TIMEOUT_MS),
          });
          const body = (await response.json().catch(() => ({}))) as { lines?: AuditLine[]; error?: string };
          if (!response.ok || !Array.isArray(body.lines)) {
            const why = body.error ?? `HTTP ${response.status}`;
            return { agent: config.name, reason: why, refused: response.status === 403 };
          }
          return { agent: config.name, lines: body.lines };
        } catch (error) {
          const timedOut = error instanceof Error && error.name === "TimeoutError";
          return {
            agent: config.name,
            reason: timedOut
              ? `no answer within ${AUDIT_TIMEOUT_MS / 1000} s`
              : `unreachable: ${error instanceof Error ? error.message : String(error)}`,
          };
        }
      }),
    );
    const reading = await own;
    if (reading?.allowed) lines.push(...(reading.lines as unknown as AuditLine[]));
    else if (reading) {
      unavailable.push({ agent, reason: reading.error });
      refusals.push(reading.error);
    }
    for (const answer of answers) {
      if ("lines" in answer && answer.lines) lines.push(...answer.lines);
      else {
        unavailable.push({ agent: answer.agent, reason: answer.reason ?? "no answer" });
        if ("refused" in answer && answer.refused) refusals.push(answer.reason ?? "");
      }
    }
    // No agent answered with lines and some refused this caller: a refusal, as on one agent.
    const answered = (reading?.allowed ? 1 : 0) + answers.filter((answer) => "lines" in answer).length;
    if (answered === 0 && refusals.length > 0) {
      return res.status(403).json({ agent, action: "audit", error: refusals[0], unavailable });
    }
    lines.sort((a, b) => a.at.localeCompare(b.at) || a.agent.localeCompare(b.agent) || a.seq - b.seq);
    res.json({
      agent,
      ...(reading?.allowed && reading.onlySubject ? { onlySubject: reading.onlySubject } : {}),
      lines: lines.slice(-(query.limit ?? lines.length)),
      unavailable,
    });
  });
}
