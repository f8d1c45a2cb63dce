/** The fields of PagerDuty's REST API v2 objects that the tools show. */
export interface Reference {
  id: string;
  summary?: string;
}

export interface PagerDutyIncident {
  id: string;
  incident_number: number;
  title: string;
  status: string;
  urgency: string;
  created_at: string;
  service?: Reference;
  escalation_policy?: Reference;
  assignments?: Array<{ assignee: Reference }>;
  acknowledgements?: Array<{ acknowledger: Reference; at: string }>;
  body?: { details?: string };
  html_url?: string;
}

export interface PagerDutyOnCall {
  escalation_policy: Reference;
  escalation_level: number;
  schedule: Reference | null;
  user: Reference;
  start: string | null;
  end: string | null;
}

export interface PagerDutyService {
  id: string;
  name: string;
  status: string;
}

const assignees = (incident: PagerDutyIncident) =>
  (incident.assignments ?? []).map((one) => one.assignee.summary ?? one.assignee.id).join(", ") || "nobody";

/** `#101 Q0ABC [triggered, high] title — checkout-api, assigned to Alice (created …)`. */
export function formatIncidentLine(incident: PagerDutyIncident): string {
  return (
    `#${incident.incident_number} ${incident.id} [${incident.status}, ${incident.urgency}] ${incident.title}` +
    ` — ${incident.service?.summary ?? "no service"}, assigned to ${assignees(incident)}` +
    ` (created ${incident.created_at})`
  );
}

export function formatIncident(incident: PagerDutyIncident): string {
  const lines = [formatIncidentLine(incident)];
  if (incident.escalation_policy?.summary)
    lines.push(`Escalation policy: ${incident.escalation_policy.summary}`);
  for (const ack of incident.acknowledgements ?? []) {
    lines.push(`Acknowledged by ${ack.acknowledger.summary ?? ack.acknowledger.id} at ${ack.at}`);
  }
  if (incident.body?.details) lines.push(`Details: ${incident.body.details}`);
  if (incident.html_url) lines.push(incident.html_url);
  return lines.join("\n");
}

/** `Alice Oncall — level 1 of Platform escalation (schedule Platform primary) until …`. */
export function formatOnCall(oncall: PagerDutyOnCall): string {
  const schedule = oncall.schedule?.summary ? ` (schedule ${oncall.schedule.summary})` : " (always on call)";
  const until = oncall.end ? ` until ${oncall.end}` : "";
  return (
    `${oncall.user.summary ?? oncall.user.id} — level ${oncall.escalation_level} of ` +
    `${oncall.escalation_policy.summary ?? oncall.escalation_policy.id}${schedule}${until}`
  );
}
