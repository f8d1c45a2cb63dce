/** The fields of Splunk Observability Cloud's REST API v2 objects that the tools show. */
export interface Detector {
  id: string;
  name: string;
  description?: string;
  programText?: string;
  rules?: Array<{ detectLabel: string; severity: string; disabled?: boolean }>;
  teams?: string[];
  lastUpdated?: number;
}

export interface Incident {
  incidentId: string;
  detectorId: string;
  detectorName?: string;
  detectLabel?: string;
  severity?: string;
  anomalyState: string;
  active: boolean;
  events?: Array<{ timestamp: number; anomalyState?: string }>;
}

export interface MutingRule {
  id: string;
  description?: string;
  filters?: Array<{ property: string; propertyValue: string | string[]; NOT?: boolean }>;
  startTime?: number;
  stopTime?: number;
}

export interface Page<T> {
  count: number;
  results: T[];
}

const iso = (ms: number | undefined) => (ms ? new Date(ms).toISOString() : "open-ended");

export function formatDetectorLine(detector: Detector): string {
  const rules = (detector.rules ?? [])
    .map((rule) => `${rule.detectLabel} (${rule.severity}${rule.disabled ? ", disabled" : ""})`)
    .join("; ");
  return `${detector.name} (id ${detector.id}): ${rules || "no rules"}`;
}

export function formatDetector(detector: Detector): string {
  const lines = [formatDetectorLine(detector)];
  if (detector.description) lines.push(detector.description);
  if (detector.teams?.length) lines.push(`Teams: ${detector.teams.join(", ")}`);
  if (detector.programText) lines.push(`SignalFlow:\n${detector.programText}`);
  return lines.join("\n");
}

export function formatIncident(incident: Incident): string {
  const since = incident.events?.[0]?.timestamp;
  return (
    `${incident.incidentId} [${incident.active ? "active" : "cleared"}, ${incident.severity ?? "?"}] ` +
    `${incident.detectorName ?? incident.detectorId}: ${incident.detectLabel ?? ""} — ${incident.anomalyState}` +
    `${since ? ` since ${iso(since)}` : ""} (detector ${incident.detectorId})`
  );
}

export function formatMutingRule(rule: MutingRule): string {
  const filters = (rule.filters ?? [])
    .map((one) => `${one.NOT ? "not " : ""}${one.property}=${[one.propertyValue].flat().join("|")}`)
    .join(", ");
  return `${rule.id}: ${rule.description || "(no description)"} — mutes ${filters || "everything"} from ${iso(rule.startTime)} to ${iso(rule.stopTime)}`;
}
