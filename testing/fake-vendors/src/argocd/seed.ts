import type { Application, ApplicationSource, ArgoState } from "./state.js";

const REPO = "https://github.com/acme/gitops.git";

/** Three applications: one healthy and synced, one out of sync and degraded with history, one auto-synced. */
export function seedArgo(now = new Date()): ArgoState {
  const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000).toISOString();
  const source = (path: string, targetRevision = "HEAD"): ApplicationSource => ({
    repoURL: REPO,
    path,
    targetRevision,
  });
  const app = (
    name: string,
    project: string,
    path: string,
    status: Application["status"],
    automated = false,
  ): Application => ({
    metadata: { name, namespace: "argocd" },
    spec: {
      project,
      source: source(path),
      destination: { server: "https://kubernetes.default.svc", namespace: name },
      ...(automated ? { syncPolicy: { automated: { prune: true, selfHeal: true } } } : {}),
    },
    status,
  });
  return {
    applications: [
      app("guestbook", "default", "apps/guestbook", {
        sync: { status: "Synced", revision: "a1b2c3d4e5f6" },
        health: { status: "Healthy" },
        history: [{ id: 1, revision: "a1b2c3d4e5f6", deployedAt: at(300), source: source("apps/guestbook") }],
        resources: [
          {
            kind: "Deployment",
            namespace: "guestbook",
            name: "guestbook-ui",
            status: "Synced",
            health: { status: "Healthy" },
          },
        ],
      }),
      app("checkout-api", "payments", "apps/checkout-api", {
        sync: { status: "OutOfSync", revision: "0ff1ce0ff1ce" },
        health: { status: "Degraded", message: "Deployment checkout-api exceeded its progress deadline" },
        history: [
          { id: 4, revision: "c0ffee000001", deployedAt: at(2000), source: source("apps/checkout-api") },
          { id: 5, revision: "c0ffee000002", deployedAt: at(600), source: source("apps/checkout-api") },
          { id: 6, revision: "0ff1ce0ff1ce", deployedAt: at(30), source: source("apps/checkout-api") },
        ],
        resources: [
          {
            group: "apps",
            kind: "Deployment",
            namespace: "checkout-api",
            name: "checkout-api",
            status: "OutOfSync",
            health: { status: "Degraded", message: "exceeded its progress deadline" },
          },
          {
            kind: "Service",
            namespace: "checkout-api",
            name: "checkout-api",
            status: "Synced",
            health: { status: "Healthy" },
          },
        ],
        operationState: {
          operation: { sync: { revision: "0ff1ce0ff1ce" } },
          phase: "Failed",
          message: "one or more objects failed to apply",
          startedAt: at(31),
          finishedAt: at(30),
        },
      }),
      app(
        "platform-ingress",
        "platform",
        "infra/ingress",
        {
          sync: { status: "Synced", revision: "1a2b3c" },
          health: { status: "Healthy" },
          history: [{ id: 2, revision: "1a2b3c", deployedAt: at(900), source: source("infra/ingress") }],
          resources: [],
        },
        true,
      ),
    ],
    operations: [],
  };
}
