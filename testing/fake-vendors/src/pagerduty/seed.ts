import type { Incident, OnCall, PagerDutyState, Reference, Service } from "./state.js";

const ref = (type: string, id: string, summary: string): Reference => ({
  id,
  type: `${type}_reference`,
  summary,
});

const PLATFORM_POLICY = ref("escalation_policy", "PEP0001", "Platform escalation");
const DATA_POLICY = ref("escalation_policy", "PEP0002", "Data escalation");
const ALICE = ref("user", "PUSR001", "Alice Oncall");
const BOB = ref("user", "PUSR002", "Bob Secondary");
const CAROL = ref("user", "PUSR003", "Carol Data");

function service(id: string, name: string, policy: Reference): Service {
  return {
    id,
    type: "service",
    name,
    summary: name,
    description: `${name} in production`,
    status: "active",
    escalation_policy: policy,
  };
}

/** Two services, three incidents (one of each status) and the people on call now. */
export function seedPagerDuty(now = new Date()): PagerDutyState {
  const services = [
    service("PSVC001", "checkout-api", PLATFORM_POLICY),
    service("PSVC002", "data-pipeline", DATA_POLICY),
  ];
  const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000).toISOString();
  const incident = (
    id: string,
    number: number,
    title: string,
    status: Incident["status"],
    svc: Service,
    assignee: Reference,
    minutesAgo: number,
  ): Incident => ({
    id,
    type: "incident",
    incident_number: number,
    title,
    summary: `[#${number}] ${title}`,
    status,
    urgency: "high",
    created_at: at(minutesAgo),
    updated_at: at(minutesAgo),
    last_status_change_at: at(minutesAgo),
    service: ref("service", svc.id, svc.name),
    escalation_policy: svc.escalation_policy,
    assignments: status === "resolved" ? [] : [{ at: at(minutesAgo), assignee }],
    acknowledgements: status === "acknowledged" ? [{ at: at(minutesAgo), acknowledger: assignee }] : [],
    resolve_reason: null,
    html_url: `https://example.pagerduty.com/incidents/${id}`,
  });
  const [checkout, data] = services as [Service, Service];
  const incidents = [
    incident("Q0CHECKOUT5XX", 101, "checkout-api 5xx rate above 5%", "triggered", checkout, ALICE, 12),
    incident("Q0PIPELINELAG", 102, "data-pipeline consumer lag over 1h", "acknowledged", data, CAROL, 45),
    incident("Q0DISKFULLOLD", 100, "disk full on build agents", "resolved", checkout, ALICE, 600),
  ];
  const shift = { start: at(60 * 8), end: new Date(now.getTime() + 16 * 3_600_000).toISOString() };
  const oncalls: OnCall[] = [
    {
      escalation_policy: PLATFORM_POLICY,
      escalation_level: 1,
      schedule: ref("schedule", "PSCH001", "Platform primary"),
      user: ALICE,
      ...shift,
    },
    {
      escalation_policy: PLATFORM_POLICY,
      escalation_level: 2,
      schedule: ref("schedule", "PSCH002", "Platform secondary"),
      user: BOB,
      ...shift,
    },
    {
      escalation_policy: DATA_POLICY,
      escalation_level: 1,
      schedule: ref("schedule", "PSCH003", "Data primary"),
      user: CAROL,
      ...shift,
    },
  ];
  const users = new Map([
    ["alice@example.com", ALICE],
    ["bob@example.com", BOB],
    ["carol@example.com", CAROL],
  ]);
  return { services, incidents, oncalls, users, changes: [], nextNumber: 103 };
}
