import type { Incident, VictorOpsState } from "./state.js";

/** Two teams, three escalation policies, three incidents (unacked, acked, resolved) and who is on call. */
export function seedVictorOps(now = new Date()): VictorOpsState {
  const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000).toISOString();
  const platform = { name: "Platform", slug: "team-platform" };
  const data = { name: "Data", slug: "team-data" };
  const incident = (
    incidentNumber: string,
    displayName: string,
    currentPhase: Incident["currentPhase"],
    routingKey: string,
    policy: { name: string; slug: string },
    team: { name: string; slug: string },
    minutesAgo: number,
  ): Incident => ({
    incidentNumber,
    startTime: at(minutesAgo),
    currentPhase,
    entityState: currentPhase === "RESOLVED" ? "OK" : "CRITICAL",
    entityType: "SERVICE",
    entityId: `${routingKey}/${incidentNumber}`,
    entityDisplayName: displayName,
    routingKey,
    alertCount: 1,
    lastAlertTime: at(minutesAgo),
    lastAlertId: `alert-${incidentNumber}`,
    service: routingKey,
    pagedUsers: [],
    pagedTeams: [team.slug],
    pagedPolicies: [{ policy, team }],
    transitions: [{ name: "UNACKED", at: at(minutesAgo), manually: false }],
  });
  const platformPrimary = { name: "Platform primary", slug: "pol-platform-primary" };
  const dataPrimary = { name: "Data primary", slug: "pol-data-primary" };
  const acked = incident(
    "412",
    "checkout latency p99 above 2s",
    "ACKED",
    "checkout",
    platformPrimary,
    platform,
    30,
  );
  acked.transitions.push({ name: "ACKED", at: at(20), by: "alice", manually: true });
  return {
    incidents: [
      incident("411", "payments API 5xx above 5%", "UNACKED", "payments", platformPrimary, platform, 10),
      acked,
      incident("409", "nightly ETL job failed", "RESOLVED", "etl", dataPrimary, data, 600),
    ],
    notes: new Map(),
    teams: [
      { ...platform, memberCount: 3, isDefaultTeam: false, version: 1 },
      { ...data, memberCount: 2, isDefaultTeam: false, version: 1 },
    ],
    policies: [
      { ...platformPrimary, team: platform.slug },
      { name: "Platform secondary", slug: "pol-platform-secondary", team: platform.slug },
      { ...dataPrimary, team: data.slug },
    ],
    onCall: [
      { team: platform.slug, policy: platformPrimary.slug, users: ["alice"] },
      { team: platform.slug, policy: "pol-platform-secondary", users: ["bob"] },
      { team: data.slug, policy: dataPrimary.slug, users: ["carol"] },
    ],
    routingKeys: [
      { routingKey: "payments", isDefault: false, policies: [platformPrimary.slug] },
      { routingKey: "checkout", isDefault: false, policies: [platformPrimary.slug] },
      { routingKey: "etl", isDefault: true, policies: [dataPrimary.slug] },
    ],
    users: new Set(["alice", "bob", "carol"]),
    changes: [],
  };
}
