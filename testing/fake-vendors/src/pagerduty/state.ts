/** A reference as PagerDuty writes one inside another object: `{ id, type: "<kind>_reference", summary }`. */
export interface Reference {
  id: string;
  type: string;
  summary: string;
}

export interface Service {
  id: string;
  type: "service";
  name: string;
  summary: string;
  description: string;
  status: "active" | "warning" | "critical" | "maintenance" | "disabled";
  escalation_policy: Reference;
}

export type IncidentStatus = "triggered" | "acknowledged" | "resolved";

export interface Incident {
  id: string;
  type: "incident";
  incident_number: number;
  title: string;
  summary: string;
  status: IncidentStatus;
  urgency: "high" | "low";
  created_at: string;
  updated_at: string;
  last_status_change_at: string;
  service: Reference;
  escalation_policy: Reference;
  assignments: Array<{ at: string; assignee: Reference }>;
  acknowledgements: Array<{ at: string; acknowledger: Reference }>;
  body?: { type: "incident_body"; details: string };
  resolve_reason: null;
  html_url: string;
}

export interface OnCall {
  escalation_policy: Reference;
  escalation_level: number;
  schedule: Reference | null;
  user: Reference;
  start: string;
  end: string;
}

/** One change the fake applied through the API, for tests: created, acknowledged or resolved. */
export interface IncidentChange {
  action: "create" | "acknowledge" | "resolve" | "note";
  incidentId: string;
  /** The From header: the PagerDuty user the change was made as. */
  from: string;
  /** A note's text (action `note`). */
  content?: string;
}

export interface PagerDutyState {
  services: Service[];
  incidents: Incident[];
  oncalls: OnCall[];
  /** Users by login email, for the From header of changes. */
  users: Map<string, Reference>;
  changes: IncidentChange[];
  nextNumber: number;
}
