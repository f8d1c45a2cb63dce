import { DescribeInstancesCommand, EC2Client } from "@aws-sdk/client-ec2";
import { ListBucketsCommand, S3Client } from "@aws-sdk/client-s3";

/** What a vendor's agent would read, fetched with the vendor's own credentials from the fleet's settings. */
type Probe = (env: Record<string, string>) => Promise<string>;

const get = async (url: string, headers: Record<string, string>) => {
  // A vendor URL may end in a slash (the proxies' do): the path is joined as the agents join it.
  const response = await fetch(url.replace(/([^:/])\/\//, "$1/"), { headers });
  return `${response.status} ${await response.text()}`;
};
const bearer = (token = "") => ({ authorization: `Bearer ${token}` });

/**
 * For each vendor a case can seed: a seed as a set would write it (YAML), a read of the vendor's API
 * as its agent makes it, what that read shows from the seed, and what it shows in the fake's default state.
 */
export const VENDOR_SEEDS: Record<string, { seed: string; probe: Probe; seeded: string; standard: string }> =
  {
    argocd: {
      seed: `{ applications: [{ metadata: { name: eval-app, namespace: argocd }, spec: { project: eval, source: { repoURL: "https://github.com/acme/gitops.git", path: apps/eval, targetRevision: HEAD }, destination: { server: "https://kubernetes.default.svc", namespace: eval } }, status: { sync: { status: OutOfSync, revision: abc123 }, health: { status: Degraded }, history: [], resources: [] } }] }`,
      probe: (env) => get(`${env.ARGOCD_API_URL}/api/v1/applications`, bearer(env.ARGOCD_TOKEN)),
      seeded: "eval-app",
      standard: "guestbook",
    },
    backstage: {
      seed: `{ entities: [{ apiVersion: backstage.io/v1alpha1, kind: Component, metadata: { name: eval-svc, namespace: default, uid: uid-eval }, spec: { type: service, lifecycle: production, owner: "group:default/eval" } }] }`,
      probe: (env) =>
        get(`${env.BACKSTAGE_URL}/api/catalog/entities/by-query`, bearer(env.BACKSTAGE_API_TOKEN)),
      seeded: "eval-svc",
      standard: "checkout-api",
    },
    confluence: {
      seed: `{ spaces: [{ key: EVAL, name: Evaluation space }], pages: [{ id: "90001", title: Eval runbook, spaceKey: EVAL, body: "<p>Restart the eval service</p>", version: 1, updatedAt: "2026-11-01T10:00:00Z", updatedBy: Eve }] }`,
      probe: (env) =>
        get(`${env.CONFLUENCE_API_URL}/wiki/rest/api/content?spaceKey=EVAL&expand=body.storage`, {
          authorization: `Basic ${Buffer.from(`${env.CONFLUENCE_USERNAME}:${env.CONFLUENCE_API_TOKEN}`).toString("base64")}`,
        }),
      seeded: "Eval runbook",
      standard: "No space with key : EVAL",
    },
    gitlab: {
      seed: `{ projects: [{ id: 77, name: eval-tools, path_with_namespace: eval/eval-tools, description: Tools for evaluations, default_branch: main, web_url: "https://gitlab.example.com/eval/eval-tools", last_activity_at: "2026-11-01T10:00:00Z", branches: [main] }] }`,
      probe: (env) => get(`${env.GITLAB_HOST}/api/v4/projects`, { "private-token": env.GITLAB_TOKEN ?? "" }),
      seeded: "eval-tools",
      standard: "deploy-tools",
    },
    komodor: {
      seed: `{ clusters: [{ clusterName: eval-cluster, provider: EKS, kubernetesVersion: "1.31", region: eu-west-1, tags: {} }] }`,
      probe: (env) => get(`${env.KOMODOR_API_URL}/api/v2/clusters`, { "x-api-key": env.KOMODOR_TOKEN ?? "" }),
      seeded: "eval-cluster",
      standard: "prod-eu",
    },
    pagerduty: {
      seed: `{ services: [{ id: PSVCEVAL, type: service, name: eval-api, summary: eval-api, description: eval-api in production, status: active, escalation_policy: { id: PEP0001, type: escalation_policy_reference, summary: Platform escalation } }] }`,
      probe: (env) =>
        get(`${env.PAGERDUTY_API_URL}/services`, {
          authorization: `Token token=${env.PAGERDUTY_API_KEY}`,
          accept: "application/vnd.pagerduty+json;version=2",
        }),
      seeded: "eval-api",
      standard: "checkout-api",
    },
    petstore: {
      seed: `{ pets: [{ id: 42, name: Biscuit, category: { id: 1, name: Dogs }, photoUrls: [], status: available }] }`,
      probe: (env) =>
        get(`${env.PETSTORE_API_URL}/pet/findByStatus?status=available`, {
          api_key: env.PETSTORE_API_KEY ?? "",
        }),
      seeded: "Biscuit",
      standard: "Rex",
    },
    slack: {
      seed: `{ channels: [{ id: C0EVAL0001, name: eval-room, is_private: false, is_archived: false, is_member: true, topic: { value: "" }, purpose: { value: Evaluations }, num_members: 3 }], history: { C0EVAL0001: [{ type: message, user: U0ALICE, text: the eval deploy is green, ts: "1793000000.000100" }] } }`,
      probe: (env) =>
        get(`${env.SLACK_API_URL}conversations.history?channel=C0EVAL0001`, bearer(env.SLACK_BOT_TOKEN)),
      seeded: "the eval deploy is green",
      standard: "channel_not_found",
    },
    splunk: {
      seed: `{ detectors: [{ id: DETEVAL, name: Eval error rate, description: Errors of the eval service, programText: "detect(when(A > 1))", rules: [{ detectLabel: errors high, severity: Major, disabled: false }], tags: [], teams: [], created: 1793000000000, lastUpdated: 1793000000000, creator: eve }] }`,
      probe: (env) => get(`${env.SPLUNK_API_URL}/v2/detector`, { "x-sf-token": env.SPLUNK_TOKEN ?? "" }),
      seeded: "Eval error rate",
      standard: "Checkout latency p99",
    },
    victorops: {
      seed: `{ incidents: [{ incidentNumber: "901", startTime: "2026-11-01T10:00:00Z", currentPhase: UNACKED, entityState: CRITICAL, entityType: SERVICE, entityId: eval/901, entityDisplayName: eval queue backed up, routingKey: etl, alertCount: 1, lastAlertTime: "2026-11-01T10:00:00Z", lastAlertId: alert-901, service: eval, pagedUsers: [], pagedTeams: [team-data], pagedPolicies: [], transitions: [{ name: UNACKED, at: "2026-11-01T10:00:00Z", manually: false }] }] }`,
      probe: (env) =>
        get(`${env.VICTOROPS_API_URL}/api-public/v1/incidents`, {
          "x-vo-api-id": env.X_VO_API_ID ?? "",
          "x-vo-api-key": env.X_VO_API_KEY ?? "",
        }),
      seeded: "eval queue backed up",
      standard: "payments API 5xx above 5%",
    },
    webex: {
      seed: `{ me: { id: PERSON-EVAL-BOT, emails: [bot@webex.bot], displayName: Eval Bot, orgId: acme-org }, people: [{ id: PERSON-EVAL-BOT, emails: [bot@webex.bot], displayName: Eval Bot, orgId: acme-org }], rooms: [{ id: ROOM-EVAL, title: Eval war room, type: group, isLocked: false, lastActivity: "2026-11-01T10:00:00.000Z", creatorId: PERSON-EVAL-BOT, created: "2026-11-01T09:00:00.000Z" }], messages: [], memberships: [{ id: MEMBERSHIP-EVAL, roomId: ROOM-EVAL, personId: PERSON-EVAL-BOT, personEmail: bot@webex.bot, personDisplayName: Eval Bot, personOrgId: acme-org, isModerator: false, isMonitor: false, created: "2026-11-01T09:00:00.000Z" }] }`,
      probe: (env) => get(`${env.WEBEX_API_URL}/rooms`, bearer(env.WEBEX_TOKEN)),
      seeded: "Eval war room",
      standard: "Platform incidents",
    },
    aws: {
      seed: `{ instances: [{ name: eval-web, state: running, tags: { env: eval } }], buckets: [eval-artifacts] }`,
      probe: async (env) => {
        const config = {
          endpoint: env.AWS_ENDPOINT_URL,
          region: env.AWS_REGION,
          credentials: {
            accessKeyId: env.AWS_ACCESS_KEY_ID ?? "",
            secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? "",
          },
        };
        const instances = await new EC2Client(config).send(new DescribeInstancesCommand({}));
        const buckets = await new S3Client({ ...config, forcePathStyle: true }).send(
          new ListBucketsCommand({}),
        );
        return JSON.stringify({ instances: instances.Reservations ?? [], buckets: buckets.Buckets ?? [] });
      },
      seeded: "eval-artifacts",
      standard: '"instances":[],"buckets":[]',
    },
    weather: {
      seed: `{ places: [{ id: 1, name: Evalton, latitude: 10.5, longitude: 20.25, elevation: 5, feature_code: PPL, country_code: NZ, country: New Zealand, timezone: Pacific/Auckland, population: 1000, weather: { current: { temperature: 31.5, apparent: 33, humidity: 40, code: 0, wind: 3, gusts: 5, precipitation: 0 }, days: [{ code: 0, max: 32, min: 20, precipitation: 0, rainChance: 0 }] } }] }`,
      probe: async (env) =>
        [
          await get(`${env.WEATHER_GEOCODING_API_URL}/v1/search?name=Evalton`, {}),
          await get(
            `${env.WEATHER_API_URL}/v1/forecast?latitude=10.5&longitude=20.25&current=temperature_2m`,
            {},
          ),
        ].join("\n"),
      seeded: '"temperature_2m":31.5',
      standard: "no weather seeded at 10.5,20.25",
    },
  };
