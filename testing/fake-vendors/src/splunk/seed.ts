import type { Detector, DetectorRule, SplunkState } from "./state.js";

/** Two detectors (one firing), its incident, a muting rule, checkout's metrics, a deploy event and two teams. */
export function seedSplunk(now = Date.now()): SplunkState {
  const ago = (minutes: number) => now - minutes * 60_000;
  const rule = (detectLabel: string, severity: DetectorRule["severity"]): DetectorRule => ({
    detectLabel,
    severity,
    disabled: false,
  });
  const detector = (
    id: string,
    name: string,
    programText: string,
    rules: DetectorRule[],
    teams: string[],
  ): Detector => ({
    id,
    name,
    description: `${name}, owned by the platform team`,
    programText,
    rules,
    tags: ["checkout"],
    teams,
    created: ago(100_000),
    lastUpdated: ago(5_000),
    creator: "EaB1cD2eF3g",
  });
  return {
    detectors: [
      detector(
        "FkR3zLpAYAA",
        "Checkout latency p99",
        "A = data('http.server.duration.p99', filter=filter('service', 'checkout')).publish(label='A')\ndetect(when(A > 2000)).publish('p99 above 2s')",
        [rule("p99 above 2s", "Critical")],
        ["GTe4mPlAAAA"],
      ),
      detector(
        "FkS9wQ2AYAA",
        "Payments error rate",
        "A = data('http.server.errors', filter=filter('service', 'payments')).publish(label='A')\ndetect(when(A > 5)).publish('errors above 5%')",
        [rule("errors above 5%", "Major"), rule("errors above 1%", "Warning")],
        ["GTe4mPlAAAA"],
      ),
    ],
    incidents: [
      {
        incidentId: "FkVtK7bAYAA",
        detectorId: "FkR3zLpAYAA",
        detectorName: "Checkout latency p99",
        detectLabel: "p99 above 2s",
        severity: "Critical",
        anomalyState: "ANOMALOUS",
        active: true,
        triggeredWhileMuted: false,
        events: [
          {
            id: "FkVtK7bAYAA_1",
            timestamp: ago(12),
            anomalyState: "ANOMALOUS",
            inputs: { A: { value: 2480 } },
          },
        ],
      },
      {
        incidentId: "FkUa1x3AYAA",
        detectorId: "FkS9wQ2AYAA",
        detectorName: "Payments error rate",
        detectLabel: "errors above 5%",
        severity: "Major",
        anomalyState: "OK",
        active: false,
        triggeredWhileMuted: false,
        events: [{ id: "FkUa1x3AYAA_1", timestamp: ago(600), anomalyState: "OK" }],
      },
    ],
    mutingRules: [
      {
        id: "FkMu7eZAYAA",
        description: "etl maintenance window",
        filters: [{ property: "service", propertyValue: "etl", NOT: false }],
        startTime: ago(30),
        stopTime: ago(-90),
        created: ago(40),
        creator: "EaB1cD2eF3g",
      },
    ],
    metrics: [
      {
        name: "http.server.duration.p99",
        type: "GAUGE",
        description: "p99 request latency in ms",
        created: ago(100_000),
      },
      { name: "http.server.errors", type: "COUNTER", description: "5xx answers", created: ago(100_000) },
      { name: "cpu.utilization", type: "GAUGE", description: "CPU use in percent", created: ago(100_000) },
    ],
    timeSeries: [
      {
        id: "AAAAAKx1Yx0",
        metric: "http.server.duration.p99",
        dimensions: { service: "checkout", host: "web-1" },
        created: ago(50_000),
      },
      {
        id: "AAAAAKx1Yx1",
        metric: "http.server.duration.p99",
        dimensions: { service: "checkout", host: "web-2" },
        created: ago(50_000),
      },
      { id: "AAAAAKx1Yx2", metric: "cpu.utilization", dimensions: { host: "web-1" }, created: ago(50_000) },
    ],
    dimensions: [
      {
        key: "service",
        value: "checkout",
        description: "the checkout API",
        tags: ["tier1"],
        customProperties: { owner: "platform" },
      },
      {
        key: "service",
        value: "payments",
        description: "",
        tags: [],
        customProperties: { owner: "payments" },
      },
      { key: "host", value: "web-1", description: "", tags: [], customProperties: {} },
    ],
    events: [
      {
        id: "EvDeploy41",
        eventType: "deploy",
        category: "USER_DEFINED",
        timestamp: ago(25),
        dimensions: { service: "checkout" },
        properties: { version: "v42", by: "ci" },
      },
    ],
    teams: [
      { id: "GTe4mPlAAAA", name: "Platform", description: "platform on-call", members: ["EaB1cD2eF3g"] },
      { id: "GTe4mDaAAAA", name: "Data", description: "data engineering", members: [] },
    ],
    changes: [],
  };
}
