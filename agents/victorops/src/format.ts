/** The fields of Splunk On-Call's public API objects that the tools show. */
export interface ActiveIncident {
  incidentNumber: string;
  startTime: string;
  currentPhase: string;
  entityState?: string;
  entityDisplayName?: string;
  entityId?: string;
  routingKey?: string;
  service?: string;
  host?: string;
  alertCount?: number;
  pagedTeams?: string[];
  pagedUsers?: string[];
  pagedPolicies?: Array<{ policy: { name: string; slug: string }; team?: { name: string; slug: string } }>;
  transitions?: Array<{ name: string; at: string; by?: string; message?: string }>;
}

export interface AckOrResolveResult {
  incidentNumber: string;
  cmdAccepted: boolean;
  message?: string;
}

export interface TeamDetail {
  name: string;
  slug: string;
  memberCount?: number;
}

export interface OnCallTeam {
  team: { name: string; slug: string };
  onCallNow?: Array<{
    escalationPolicy: { name: string; slug: string };
    users?: Array<{ onCallUser?: { username?: string } }>;
  }>;
}

export interface RoutingKeyInfo {
  routingKey: string;
  isDefault?: boolean;
  targets?: Array<{ policyName?: string; policySlug?: string }>;
}

/** Splunk On-Call's phases in the words people use. */
export const PHASE_NAMES: Record<string, string> = {
  UNACKED: "triggered",
  ACKED: "acknowledged",
  RESOLVED: "resolved",
};

const teams = (incident: ActiveIncident) =>
  [...new Set((incident.pagedPolicies ?? []).map((one) => one.team?.name ?? one.policy.name))].join(", ") ||
  (incident.pagedTeams ?? []).join(", ") ||
  "no team";

/** `#411 [triggered] payments API 5xx above 5% — routing key payments, Platform (started …)`. */
export function formatIncidentLine(incident: ActiveIncident): string {
  const phase = PHASE_NAMES[incident.currentPhase] ?? incident.currentPhase.toLowerCase();
  return (
    `#${incident.incidentNumber} [${phase}] ${incident.entityDisplayName ?? incident.entityId ?? "incident"}` +
    ` — routing key ${incident.routingKey ?? "none"}, ${teams(incident)} (started ${incident.startTime})`
  );
}

export function formatIncident(incident: ActiveIncident): string {
  const lines = [formatIncidentLine(incident)];
  if (incident.entityState) lines.push(`State: ${incident.entityState}; alerts: ${incident.alertCount ?? 0}`);
  const policies = (incident.pagedPolicies ?? []).map((one) => `${one.policy.name} (${one.policy.slug})`);
  if (policies.length) lines.push(`Paged: ${policies.join(", ")}`);
  if (incident.pagedUsers?.length) lines.push(`Paged users: ${incident.pagedUsers.join(", ")}`);
  for (const step of incident.transitions ?? []) {
    const by = step.by ? ` by ${step.by}` : "";
    const message = step.message ? `: ${step.message}` : "";
    lines.push(`${PHASE_NAMES[step.name] ?? step.name} at ${step.at}${by}${message}`);
  }
  return lines.join("\n");
}
