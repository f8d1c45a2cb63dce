/** The parts of Splunk Observability Cloud's (SignalFx's) REST API v2 objects the fake keeps, as it names them. */
export interface DetectorRule {
  detectLabel: string;
  severity: "Critical" | "Major" | "Minor" | "Warning" | "Info";
  disabled: boolean;
  description?: string;
}

export interface Detector {
  id: string;
  name: string;
  description: string;
  programText: string;
  rules: DetectorRule[];
  tags: string[];
  teams: string[];
  created: number;
  lastUpdated: number;
  creator: string;
}

export interface Incident {
  incidentId: string;
  detectorId: string;
  detectorName: string;
  detectLabel: string;
  severity: DetectorRule["severity"];
  anomalyState: "ANOMALOUS" | "OK" | "STOPPED" | "MANUALLY_RESOLVED";
  active: boolean;
  triggeredWhileMuted: boolean;
  events: Array<{ id: string; timestamp: number; anomalyState: string; inputs?: Record<string, unknown> }>;
}

export interface MutingFilter {
  property: string;
  propertyValue: string;
  NOT: boolean;
}

export interface MutingRule {
  id: string;
  description: string;
  filters: MutingFilter[];
  startTime: number;
  stopTime: number;
  created: number;
  creator: string;
}

export interface Metric {
  name: string;
  type: "GAUGE" | "COUNTER" | "CUMULATIVE_COUNTER";
  description: string;
  created: number;
}

export interface TimeSeries {
  id: string;
  metric: string;
  dimensions: Record<string, string>;
  created: number;
}

export interface Dimension {
  key: string;
  value: string;
  description: string;
  tags: string[];
  customProperties: Record<string, string>;
}

export interface ObservedEvent {
  id: string;
  eventType: string;
  category: "USER_DEFINED" | "ALERT" | "AUDIT" | "JOB";
  timestamp: number;
  dimensions: Record<string, string>;
  properties: Record<string, string>;
}

export interface Team {
  id: string;
  name: string;
  description: string;
  members: string[];
}

/** One change the fake applied through the API, for tests. */
export type SplunkChange =
  | { action: "disable" | "enable"; detectorId: string; labels: string[] }
  | { action: "clear"; incidentId: string }
  | { action: "mute"; rule: MutingRule }
  | { action: "unmute"; ruleId: string };

export interface SplunkState {
  detectors: Detector[];
  incidents: Incident[];
  mutingRules: MutingRule[];
  metrics: Metric[];
  timeSeries: TimeSeries[];
  dimensions: Dimension[];
  events: ObservedEvent[];
  teams: Team[];
  changes: SplunkChange[];
}
