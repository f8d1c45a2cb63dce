/** The parts of Splunk On-Call's (VictorOps') public API objects the fake keeps, as the API names them. */
export interface Transition {
  name: string;
  at: string;
  by?: string;
  message?: string;
  manually?: boolean;
}

export interface PagedPolicy {
  policy: { name: string; slug: string };
  team?: { name: string; slug: string };
}

/** `ActiveIncidentInfo` of GET /api-public/v1/incidents. */
export interface Incident {
  incidentNumber: string;
  startTime: string;
  currentPhase: "UNACKED" | "ACKED" | "RESOLVED";
  entityState: "CRITICAL" | "WARNING" | "INFO" | "OK";
  entityType: string;
  entityId: string;
  entityDisplayName: string;
  routingKey: string;
  alertCount: number;
  lastAlertTime: string;
  lastAlertId: string;
  host?: string;
  service?: string;
  pagedUsers: string[];
  pagedTeams: string[];
  pagedPolicies: PagedPolicy[];
  transitions: Transition[];
}

export interface Note {
  name: string;
  display_name: string;
  json_value: unknown;
}

export interface Team {
  name: string;
  slug: string;
  memberCount: number;
  isDefaultTeam: boolean;
  version: number;
}

export interface Policy {
  name: string;
  slug: string;
  team: string;
}

/** Who is on call now, per team and escalation policy (GET /api-public/v1/oncall/current). */
export interface OnCallNow {
  team: string;
  policy: string;
  users: string[];
}

export interface RoutingKey {
  routingKey: string;
  isDefault: boolean;
  policies: string[];
}

/** One change the fake applied, for tests. */
export type IncidentChange =
  | {
      action: "create";
      incidentNumber: string;
      userName: string;
      targets: Array<{ type: string; slug: string }>;
    }
  | { action: "ack" | "resolve"; incidentNumber: string; userName: string; message?: string }
  | { action: "note"; incidentNumber: string; note: Note };

export interface VictorOpsState {
  incidents: Incident[];
  notes: Map<string, Note[]>;
  teams: Team[];
  policies: Policy[];
  onCall: OnCallNow[];
  routingKeys: RoutingKey[];
  users: Set<string>;
  changes: IncidentChange[];
}
