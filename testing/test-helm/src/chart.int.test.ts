import {
  type AgentPackage,
  agentUrlVariableFor,
  enableVariableFor,
  isFeatureFlag,
  listAgentPackages,
  SUPERVISOR,
  serviceNameFor,
  WEB_UI_PORT,
} from "@switchboard/contract";
import { describe, expect, it } from "vitest";
import {
  containerEnv,
  containerOf,
  find,
  type LabelSelector,
  ofKind,
  peerAdmits,
  plainValues,
  selectorSelects,
  selects,
} from "../test/manifests.js";
import { startWebServer } from "../test/web-server.js";
import { type ChartOptions, type KubeObject, lintChart, renderChart, templateChart } from "./chart.js";
import { findRepoRoot } from "./helm.js";
import { validateManifest } from "./kube-schema.js";

/** The supervisor's wiring to an agent: ENABLE_<AGENT> and <AGENT>_AGENT_URL (feature flags such as ENABLE_FACT_EXTRACTION are not). */
const isWiring = (key: string) => /^ENABLE_|_AGENT_URL$/.test(key) && !isFeatureFlag(key);

const repoRoot = findRepoRoot();
const agents = listAgentPackages(repoRoot);
const supervisor = agents.find(({ name }) => name === SUPERVISOR) as AgentPackage;
const subagents = agents.filter(({ name }) => name !== SUPERVISOR);

const release = "sb";
const namespace = "fleet";
/** The release's name prefix: "<release>-<chart>". */
const fullname = `${release}-switchboard`;
const objectName = (agent: string) => `${fullname}-${serviceNameFor(agent)}`;
const serviceUrl = (agent: AgentPackage) => `http://${objectName(agent.name)}:${agent.port}`;
/** The web chat's objects (component `web`). */
const webName = `${fullname}-web`;

/** Credentials the full values hand the chart; none may show up outside the Secret. */
const secretValues = {
  MONGODB_URI: "mongodb://switchboard:m0ngo-Pa55@mongodb.db.svc:27017/switchboard?authSource=admin",
  OPENAI_API_KEY: "sk-test-openai-4f1c9e",
  ATLASSIAN_TOKEN: "atl-test-token-93b2aa",
  GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_testtoken0123456789abcdef",
  AWS_ACCESS_KEY_ID: "AKIATESTKEY0123456",
  AWS_SECRET_ACCESS_KEY: "aws-test-secret-7d0e51",
};
/** Which component reads each service credential; everything else in secretValues every component reads. */
const readOnlyBy: Record<string, string> = {
  ATLASSIAN_TOKEN: "jira",
  GITHUB_PERSONAL_ACCESS_TOKEN: "github",
  AWS_ACCESS_KEY_ID: "aws",
  AWS_SECRET_ACCESS_KEY: "aws",
};

const host = "switchboard.example.com";
/** The web chat's sign-in, required with AUTH_MODE=jwt. */
const oidc = { OIDC_ISSUER: "https://idp.example.com/realms/acme", OIDC_CLIENT_ID: "switchboard-web" };
/** Everything optional on: settings, credentials, ingress, ServiceMonitor, NetworkPolicy, the web chat. */
const fullValues = {
  config: {
    LLM_PROVIDER: "openai",
    OPENAI_MODEL_NAME: "gpt-4o-mini",
    AUTH_MODE: "jwt",
    AUTH_JWKS_URL: "https://idp.example.com/.well-known/jwks.json",
    LANGGRAPH_CHECKPOINT_TTL_MINUTES: 43200,
  },
  secrets: { values: secretValues },
  agents: {
    jira: { env: { ATLASSIAN_API_URL: "https://acme.atlassian.net", ATLASSIAN_EMAIL: "bot@acme.example" } },
    aws: { env: { AWS_REGION: "eu-west-1" } },
  },
  image: { registry: "registry.example.com/acme", tag: "1.2.3" },
  ingress: {
    enabled: true,
    className: "nginx",
    annotations: { "nginx.ingress.kubernetes.io/proxy-buffering": "off" },
    hosts: [{ host, paths: [{ path: "/", pathType: "Prefix" }] }],
    tls: [{ secretName: "switchboard-tls", hosts: [host] }],
  },
  serviceMonitor: { enabled: true, labels: { release: "kube-prometheus-stack" } },
  networkPolicy: {
    enabled: true,
    metricsFrom: [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "monitoring" } } }],
  },
  web: { enabled: true, env: oidc },
};
const withoutWeb = { ...fullValues, web: { enabled: false } };
const existingSecret = "switchboard-credentials";
const existingSecretValues = { ...fullValues, secrets: { existingSecret } };

const variants: Record<string, ChartOptions> = {
  "default values": {},
  "full values": { values: fullValues },
  "full values with an existing Secret": { values: existingSecretValues },
};

const render = (values?: Record<string, unknown>, set?: string[]) =>
  renderChart({ release, namespace, ...(values ? { values } : {}), ...(set ? { set } : {}) });

/** helm's message for values it refuses. */
async function refusal(options: ChartOptions): Promise<string> {
  const result = await templateChart({ release, namespace, ...options });
  expect(result.code, result.stdout).not.toBe(0);
  return result.stderr;
}

/** Each variant rendered once, on first use: a variant that fails to render fails only its tests. */
const renders = new Map<string, Promise<KubeObject[]>>();
function rendered(variant: keyof typeof variants & string): Promise<KubeObject[]> {
  let objects = renders.get(variant);
  if (!objects) {
    objects = render(variants[variant]?.values);
    renders.set(variant, objects);
  }
  return objects;
}
const defaults = () => rendered("default values");
const full = () => rendered("full values");

describe("the Helm chart (charts/switchboard)", () => {
  it.each(Object.entries(variants))("passes helm lint --strict with %s", async (_, options) => {
    const result = await lintChart({ namespace, ...options });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toContain("0 chart(s) failed");
  });

  it.each(Object.keys(variants))(
    "renders, with %s, only objects valid by their Kubernetes API schema, labelled and in the release namespace",
    async (variant) => {
      const objects = await rendered(variant);
      expect(objects.length).toBeGreaterThan(0);
      expect(objects.flatMap(validateManifest)).toEqual([]);
      for (const object of objects) {
        const where = `${object.kind} ${object.metadata.name}`;
        expect(object.metadata.namespace, where).toBe(namespace);
        expect(object.metadata.labels, where).toMatchObject({
          "app.kubernetes.io/name": "switchboard",
          "app.kubernetes.io/instance": release,
          "app.kubernetes.io/managed-by": "Helm",
          "app.kubernetes.io/part-of": "switchboard",
          "helm.sh/chart": expect.stringMatching(/^switchboard-\d+\.\d+\.\d+/),
          "app.kubernetes.io/version": expect.any(String),
        });
      }
      const names = objects.map(({ kind, metadata }) => `${kind}/${metadata.name}`);
      expect(new Set(names).size, "no two objects share a kind and name").toBe(names.length);
    },
  );

  it("deploys the supervisor and every agent package under agents/, each on its contract port", async () => {
    const objects = await defaults();
    expect(subagents.length).toBeGreaterThan(0);
    for (const agent of agents) {
      const name = objectName(agent.name);
      const component = { "app.kubernetes.io/component": serviceNameFor(agent.name) };
      const deployment = find(objects, "Deployment", name);
      expect(deployment.metadata?.labels).toMatchObject(component);
      expect(deployment.spec?.template.metadata?.labels).toMatchObject(component);
      expect(
        selects(deployment.spec?.selector.matchLabels, deployment.spec?.template.metadata?.labels ?? {}),
      ).toBe(true);
      expect(containerOf(deployment).ports).toEqual([
        { name: "http", containerPort: agent.port, protocol: "TCP" },
      ]);

      const service = find(objects, "Service", name);
      expect(service.spec?.type).toBe("ClusterIP");
      expect(service.spec?.ports).toEqual([
        expect.objectContaining({ port: agent.port, targetPort: "http" }),
      ]);
      expect(service.spec?.selector).toEqual(deployment.spec?.selector.matchLabels);
      for (const kind of ["HorizontalPodAutoscaler", "PodDisruptionBudget", "ConfigMap"] as const) {
        expect(find(objects, kind, name).metadata?.labels).toMatchObject(component);
      }
    }
    expect(ofKind(objects, "Deployment")).toHaveLength(agents.length);
  });

  it("probes each component on its contract port: startup and liveness on /health, readiness on /ready", async () => {
    const defaultObjects = await defaults();
    for (const agent of agents) {
      const container = containerOf(find(defaultObjects, "Deployment", objectName(agent.name)));
      const portNamed = (port: unknown) => container.ports?.find(({ name }) => name === port)?.containerPort;
      const probes = {
        startup: container.startupProbe?.httpGet,
        liveness: container.livenessProbe?.httpGet,
        readiness: container.readinessProbe?.httpGet,
      };
      expect(probes.startup?.path, agent.name).toBe("/health");
      expect(probes.liveness?.path, agent.name).toBe("/health");
      expect(probes.readiness?.path, agent.name).toBe("/ready");
      for (const probe of Object.values(probes)) expect(portNamed(probe?.port), agent.name).toBe(agent.port);
      expect(container.startupProbe?.failureThreshold).toBeGreaterThan(
        container.livenessProbe?.failureThreshold ?? 0,
      );
    }
  });

  it("autoscales each component from 3 to 10 replicas on CPU, and drains one pod at a time", async () => {
    const defaultObjects = await defaults();
    for (const agent of agents) {
      const name = objectName(agent.name);
      const hpa = find(defaultObjects, "HorizontalPodAutoscaler", name);
      expect(hpa.apiVersion).toBe("autoscaling/v2");
      expect(hpa.spec?.scaleTargetRef).toEqual({ apiVersion: "apps/v1", kind: "Deployment", name });
      expect(hpa.spec?.minReplicas).toBe(3);
      expect(hpa.spec?.maxReplicas).toBe(10);
      expect(hpa.spec?.metrics).toEqual([
        {
          type: "Resource",
          resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 70 } },
        },
      ]);
      // The HPA owns the replica count; a fixed one would fight it on every upgrade.
      expect(find(defaultObjects, "Deployment", name).spec?.replicas).toBeUndefined();
      const pdb = find(defaultObjects, "PodDisruptionBudget", name);
      expect(pdb.spec?.maxUnavailable).toBe(1);
      expect(pdb.spec?.selector?.matchLabels).toEqual(
        find(defaultObjects, "Deployment", name).spec?.selector.matchLabels,
      );
    }
  });

  it("takes fixed replicas and other HPA targets per component", async () => {
    const [first] = subagents as [AgentPackage];
    const objects = await render({
      defaults: { autoscaling: { minReplicas: 2, targetMemoryUtilizationPercentage: 80 } },
      agents: { [first.name]: { autoscaling: { enabled: false }, replicaCount: 4 } },
    });
    const hpa = find(objects, "HorizontalPodAutoscaler", objectName(SUPERVISOR));
    expect(hpa.spec?.minReplicas).toBe(2);
    expect(hpa.spec?.maxReplicas).toBe(10);
    expect(hpa.spec?.metrics?.map((metric) => metric.resource?.name)).toEqual(["cpu", "memory"]);
    expect(ofKind(objects, "HorizontalPodAutoscaler").map(({ metadata }) => metadata.name)).not.toContain(
      objectName(first.name),
    );
    expect(find(objects, "Deployment", objectName(first.name)).spec?.replicas).toBe(4);
    expect(
      await refusal({ values: { defaults: { autoscaling: { minReplicas: 11, maxReplicas: 10 } } } }),
    ).toContain("minReplicas 11 is above maxReplicas 10");
  });

  it("wires the supervisor to every enabled agent by the contract's variables and Service URLs", async () => {
    const defaultObjects = await defaults();
    const fullObjects = await full();
    for (const objects of [defaultObjects, fullObjects]) {
      const env = plainValues(containerEnv(objects, find(objects, "Deployment", objectName(SUPERVISOR))));
      const wiring = Object.fromEntries(
        subagents.flatMap((agent) => [
          [enableVariableFor(agent.name), "true"],
          [agentUrlVariableFor(agent.name), serviceUrl(agent)],
        ]),
      );
      expect(env).toMatchObject(wiring);
      expect(
        Object.keys(env)
          .filter((key) => isWiring(key))
          .sort(),
      ).toEqual(Object.keys(wiring).sort());
      expect(env.PORT).toBe(String(supervisor.port));
    }
    // Each agent's card carries the URL the supervisor calls it at, and it listens on its port.
    for (const agent of subagents) {
      const env = plainValues(
        containerEnv(defaultObjects, find(defaultObjects, "Deployment", objectName(agent.name))),
      );
      expect(env).toMatchObject({
        PORT: String(agent.port),
        HOST: "0.0.0.0",
        AGENT_PUBLIC_URL: serviceUrl(agent),
      });
      expect(Object.keys(env).filter(isWiring)).toEqual([]);
    }
  });

  it("renders nothing for a disabled agent and leaves it out of the supervisor's wiring", async () => {
    for (const disabled of subagents) {
      const objects = await render({ ...fullValues, agents: { [disabled.name]: { enabled: false } } });
      const component = serviceNameFor(disabled.name);
      expect(
        objects.filter(
          ({ metadata }) =>
            metadata.labels?.["app.kubernetes.io/component"] === component ||
            metadata.name === objectName(disabled.name),
        ),
      ).toEqual([]);
      const env = plainValues(containerEnv(objects, find(objects, "Deployment", objectName(SUPERVISOR))));
      expect(env).not.toHaveProperty(enableVariableFor(disabled.name));
      expect(env).not.toHaveProperty(agentUrlVariableFor(disabled.name));
      for (const other of subagents.filter((agent) => agent !== disabled)) {
        expect(env[agentUrlVariableFor(other.name)]).toBe(serviceUrl(other));
      }
      expect(ofKind(objects, "NetworkPolicy")).toHaveLength(subagents.length - 1);
    }
  });

  it("deploys the supervisor alone, wired to nothing, when every agent is disabled", async () => {
    const objects = await render({
      agents: Object.fromEntries(subagents.map((agent) => [agent.name, { enabled: false }])),
    });
    expect(ofKind(objects, "Deployment").map(({ metadata }) => metadata.name)).toEqual([
      objectName(SUPERVISOR),
    ]);
    const env = plainValues(containerEnv(objects, find(objects, "Deployment", objectName(SUPERVISOR))));
    expect(Object.keys(env).filter((key) => isWiring(key))).toEqual([]);
  });

  it("keeps secrets out of every ConfigMap: in the Secret, referenced only by the components that read them", async () => {
    const defaultObjects = await defaults();
    const objects = await full();
    const configMapText = JSON.stringify(ofKind(objects, "ConfigMap"));
    const deploymentText = JSON.stringify(ofKind(objects, "Deployment"));
    for (const value of Object.values(secretValues)) {
      expect(configMapText).not.toContain(value);
      expect(deploymentText).not.toContain(value);
    }
    const secret = find(objects, "Secret", fullname);
    const stored = Object.fromEntries(
      Object.entries(secret.data ?? {}).map(([key, value]) => [key, Buffer.from(value, "base64").toString()]),
    );
    expect(stored).toEqual(secretValues);

    for (const agent of agents) {
      const env = containerEnv(objects, find(objects, "Deployment", objectName(agent.name)));
      for (const key of Object.keys(secretValues)) {
        const reader = readOnlyBy[key];
        if (reader === undefined || reader === agent.name) {
          expect(env[key], `${agent.name} reads ${key}`).toEqual({ secret: fullname, key, optional: true });
        } else {
          expect(env[key], `${agent.name} must not read ${key}`).toBeUndefined();
        }
      }
    }
    // The web chat holds no credential: MongoDB and the LLM keys are the agents'.
    expect(containerOf(find(objects, "Deployment", webName)).env).toBeUndefined();
    // Non-secret settings land in the shared ConfigMap, as strings.
    expect(find(objects, "ConfigMap", `${fullname}-config`).data).toMatchObject({
      LLM_PROVIDER: "openai",
      AUTH_MODE: "jwt",
      LANGGRAPH_CHECKPOINT_TYPE: "mongodb",
      LANGGRAPH_CHECKPOINT_TTL_MINUTES: "43200",
    });
    // The default values create no Secret (nothing to put in it); references stay optional.
    expect(ofKind(defaultObjects, "Secret")).toEqual([]);
  });

  it("takes the MongoDB URI from --set, as the README's install does", async () => {
    const uri = "mongodb://sb:pw@mongo-0.mongo:27017/switchboard";
    const objects = await render(undefined, [`secrets.values.MONGODB_URI=${uri}`]);
    const secret = find(objects, "Secret", fullname);
    expect(Buffer.from(secret.data?.MONGODB_URI ?? "", "base64").toString()).toBe(uri);
    expect(JSON.stringify(ofKind(objects, "ConfigMap"))).not.toContain("pw@");
  });

  it("reads every secret from an existing Secret when one is named, and refuses values beside it", async () => {
    const objects = await rendered("full values with an existing Secret");
    expect(ofKind(objects, "Secret")).toEqual([]);
    for (const deployment of ofKind(objects, "Deployment").filter(
      ({ metadata }) => metadata.name !== webName,
    )) {
      const refs = (containerOf(deployment).env ?? []).map(
        (variable) => variable.valueFrom?.secretKeyRef?.name,
      );
      expect(refs.length).toBeGreaterThan(0);
      expect(new Set(refs)).toEqual(new Set([existingSecret]));
    }
    expect(
      await refusal({ values: { secrets: { existingSecret, values: { OPENAI_API_KEY: "sk-x" } } } }),
    ).toContain("secrets.existingSecret is set: put OPENAI_API_KEY in that Secret");
  });

  it("refuses secret-looking variables in ConfigMap settings, and secrets no component reads", async () => {
    expect(await refusal({ values: { config: { OPENAI_API_KEY: "sk-x" } } })).toContain(
      "config.OPENAI_API_KEY looks secret",
    );
    expect(await refusal({ values: { config: { MONGODB_URI: "mongodb://u:p@h" } } })).toContain(
      "config.MONGODB_URI looks secret",
    );
    const [first] = subagents as [AgentPackage];
    expect(await refusal({ values: { agents: { [first.name]: { env: { SOME_TOKEN: "t" } } } } })).toContain(
      `agents.${first.name}.env.SOME_TOKEN looks secret`,
    );
    expect(await refusal({ values: { secrets: { values: { UNUSED_TOKEN: "t" } } } })).toContain(
      "secrets.values.UNUSED_TOKEN is read by no component",
    );
    expect(await refusal({ values: { supervisor: { env: { PORT: "9000" } } } })).toContain(
      "supervisor.env.PORT is set by the chart",
    );
  });

  it("runs every pod as non-root on a read-only root filesystem, without privileges or a service account token", async () => {
    for (const variant of Object.keys(variants)) {
      const objects = await rendered(variant);
      for (const deployment of ofKind(objects, "Deployment")) {
        const where = `${variant}: ${deployment.metadata?.name}`;
        const pod = deployment.spec?.template.spec;
        const container = containerOf(deployment);
        expect(pod?.automountServiceAccountToken, where).toBe(false);
        expect(pod?.enableServiceLinks, where).toBe(false);
        expect(pod?.securityContext?.runAsNonRoot, where).toBe(true);
        expect(pod?.securityContext?.runAsUser, where).toBeGreaterThan(0);
        expect(pod?.securityContext?.seccompProfile?.type, where).toBe("RuntimeDefault");
        expect(container.securityContext, where).toMatchObject({
          runAsNonRoot: true,
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          privileged: false,
          capabilities: { drop: ["ALL"] },
        });
        expect(container.securityContext?.capabilities?.add, where).toBeUndefined();
        // The one writable place: an emptyDir on /tmp.
        const tmp = container.volumeMounts?.find(({ mountPath }) => mountPath === "/tmp");
        expect(pod?.volumes?.find(({ name }) => name === tmp?.name)?.emptyDir, where).toBeDefined();
        expect(container.volumeMounts, where).toHaveLength(1);
        expect(container.resources?.requests, where).toMatchObject({
          cpu: expect.anything(),
          memory: expect.anything(),
        });
        expect(container.resources?.limits, where).toMatchObject({
          cpu: expect.anything(),
          memory: expect.anything(),
        });
        const account = ofKind(objects, "ServiceAccount").find(
          ({ metadata }) => metadata.name === pod?.serviceAccountName,
        );
        expect(account?.automountServiceAccountToken, where).toBe(false);
      }
    }
  });

  it("admits only the supervisor to each agent (and the web UI when switched on) by NetworkPolicy", async () => {
    const defaultObjects = await defaults();
    const fullObjects = await full();
    const podLabels = (objects: KubeObject[]) =>
      ofKind(objects, "Deployment").map((deployment) => ({
        name: deployment.metadata?.name ?? "",
        labels: deployment.spec?.template.metadata?.labels ?? {},
      }));
    const web = { "app.kubernetes.io/name": "switchboard", "app.kubernetes.io/instance": release };
    const webPod = { ...web, "app.kubernetes.io/component": "web" };
    const otherReleaseSupervisor = {
      ...(find(fullObjects, "Deployment", objectName(SUPERVISOR)).spec?.template.metadata?.labels ?? {}),
      "app.kubernetes.io/instance": "other",
    };

    for (const [webEnabled, objects] of [
      [true, fullObjects],
      [false, await render(withoutWeb)],
    ] as const) {
      const policies = ofKind(objects, "NetworkPolicy");
      expect(policies.map(({ metadata }) => metadata.name).sort()).toEqual(
        subagents.map(({ name }) => objectName(name)).sort(),
      );
      for (const agent of subagents) {
        const policy = find(objects, "NetworkPolicy", objectName(agent.name));
        const selected = podLabels(objects).filter(({ labels }) =>
          selects(policy.spec?.podSelector.matchLabels, labels),
        );
        expect(selected.map(({ name }) => name)).toEqual([objectName(agent.name)]);
        expect(policy.spec?.policyTypes).toEqual(["Ingress"]);

        const [fromPods, metrics, ...rest] = policy.spec?.ingress ?? [];
        expect(rest).toEqual([]);
        for (const rule of [fromPods, metrics])
          expect(rule?.ports).toEqual([{ port: agent.port, protocol: "TCP" }]);
        const admitted = (labels: Record<string, string>) =>
          (fromPods?.from ?? []).some((peer) => peerAdmits(peer, labels));
        expect(
          podLabels(objects)
            .filter(({ labels }) => admitted(labels))
            .map(({ name }) => name),
        ).toEqual(webEnabled ? [objectName(SUPERVISOR), webName] : [objectName(SUPERVISOR)]);
        expect(admitted(webPod)).toBe(webEnabled);
        expect(admitted(otherReleaseSupervisor)).toBe(false);
        // The second rule is networkPolicy.metricsFrom as given: Prometheus' namespace, nothing in ours.
        expect(metrics?.from).toEqual(fullValues.networkPolicy.metricsFrom);
      }
    }
    // Off by default.
    expect(ofKind(defaultObjects, "NetworkPolicy")).toEqual([]);
  });

  it("routes the ingress to the supervisor without the web chat, whose agent card then carries the public URL", async () => {
    const defaultObjects = await defaults();
    const objects = await render(withoutWeb);
    const [ingress, ...more] = ofKind(objects, "Ingress");
    expect(more).toEqual([]);
    expect(ingress?.metadata.name).toBe(objectName(SUPERVISOR));
    expect(ingress?.spec?.ingressClassName).toBe("nginx");
    expect(ingress?.spec?.tls).toEqual([{ hosts: [host], secretName: "switchboard-tls" }]);
    expect(ingress?.spec?.rules).toEqual([
      {
        host,
        http: {
          paths: [
            {
              path: "/",
              pathType: "Prefix",
              backend: { service: { name: objectName(SUPERVISOR), port: { number: supervisor.port } } },
            },
          ],
        },
      },
    ]);
    const env = plainValues(containerEnv(objects, find(objects, "Deployment", objectName(SUPERVISOR))));
    expect(env.AGENT_PUBLIC_URL).toBe(`https://${host}`);
    expect(ofKind(defaultObjects, "Ingress")).toEqual([]);
    const defaultEnv = plainValues(
      containerEnv(defaultObjects, find(defaultObjects, "Deployment", objectName(SUPERVISOR))),
    );
    expect(defaultEnv.AGENT_PUBLIC_URL).toBe(serviceUrl(supervisor));
  });

  it("scrapes /metrics of every component's Service with one ServiceMonitor", async () => {
    const defaultObjects = await defaults();
    const fullObjects = await full();
    const monitors = fullObjects.filter(({ kind }) => kind === "ServiceMonitor");
    expect(monitors).toHaveLength(1);
    const spec = monitors[0]?.spec as {
      selector: LabelSelector;
      namespaceSelector: { matchNames: string[] };
      endpoints: Array<{ port: string; path: string }>;
    };
    expect(monitors[0]?.apiVersion).toBe("monitoring.coreos.com/v1");
    expect(monitors[0]?.metadata.labels).toMatchObject({ release: "kube-prometheus-stack" });
    expect(spec.namespaceSelector.matchNames).toEqual([namespace]);
    expect(spec.endpoints).toEqual([expect.objectContaining({ port: "http", path: "/metrics" })]);
    const services = ofKind(fullObjects, "Service");
    // Every agent's Service and the supervisor's; not the web chat's, which serves no /metrics.
    expect(
      services
        .filter(({ metadata }) => selectorSelects(spec.selector, metadata.labels ?? {}))
        .map(({ metadata }) => metadata.name)
        .sort(),
    ).toEqual(agents.map(({ name }) => objectName(name)).sort());
    expect(services.map(({ metadata }) => metadata.name)).toContain(webName);
    for (const service of services) expect(service.spec?.ports?.map(({ name }) => name)).toContain("http");
    expect(defaultObjects.filter(({ kind }) => kind === "ServiceMonitor")).toEqual([]);
  });

  it("names images as the Dockerfile and docker-compose.dev.yaml do: <prefix>/<supervisor|agent-name|web>:<tag>", async () => {
    const defaultObjects = await defaults();
    const fullObjects = await full();
    const imageOf = (objects: KubeObject[], agent: AgentPackage) =>
      containerOf(find(objects, "Deployment", objectName(agent.name))).image;
    for (const agent of agents) {
      expect(imageOf(defaultObjects, agent)).toBe(`switchboard/${serviceNameFor(agent.name)}:0.1.0`);
      expect(imageOf(fullObjects, agent)).toBe(
        `registry.example.com/acme/switchboard/${serviceNameFor(agent.name)}:1.2.3`,
      );
    }
    // The web chat's image is `web`, as docker-compose.dev.yaml names the APP=web build.
    expect(containerOf(find(fullObjects, "Deployment", webName)).image).toBe(
      "registry.example.com/acme/switchboard/web:1.2.3",
    );
  });

  it("refuses values its schema does not know", async () => {
    const [first] = subagents as [AgentPackage];
    expect(await refusal({ values: { agents: { [first.name]: { enabeld: true } } } })).toMatch(/enabeld/);
    expect(await refusal({ values: { defaults: { replicas: 3 } } })).toMatch(/replicas/);
    expect(await refusal({ values: { agents: { [first.name]: { port: "8006" } } } })).toMatch(/port/);
    expect(await refusal({ values: { agents: { Bad_Name: { enabled: true, port: 8100 } } } })).toMatch(
      /Bad_Name/,
    );
  });
});

describe("the web chat in the Helm chart (web.enabled)", () => {
  /** The web chat's own objects: labelled component `web`, or named after it. */
  const webObjects = (objects: KubeObject[]) =>
    objects.filter(
      ({ metadata }) =>
        metadata.labels?.["app.kubernetes.io/component"] === "web" || metadata.name === webName,
    );

  it("deploys the web chat as component `web`: Deployment, Service on the web UI's port, ConfigMap, HPA and PDB", async () => {
    const objects = await full();
    const component = { "app.kubernetes.io/component": "web" };
    const deployment = find(objects, "Deployment", webName);
    expect(validateManifest(deployment)).toEqual([]);
    expect(deployment.spec?.template.metadata?.labels).toMatchObject(component);
    expect(
      selects(deployment.spec?.selector.matchLabels, deployment.spec?.template.metadata?.labels ?? {}),
    ).toBe(true);
    const container = containerOf(deployment);
    expect(container.name).toBe("web");
    expect(container.ports).toEqual([{ name: "http", containerPort: WEB_UI_PORT, protocol: "TCP" }]);

    const service = find(objects, "Service", webName);
    expect(validateManifest(service)).toEqual([]);
    expect(service.spec?.type).toBe("ClusterIP");
    expect(service.spec?.ports).toEqual([expect.objectContaining({ port: WEB_UI_PORT, targetPort: "http" })]);
    expect(service.spec?.selector).toEqual(deployment.spec?.selector.matchLabels);
    // Its Service selects its pods and no other component's.
    const selected = ofKind(objects, "Deployment").filter((other) =>
      selects(service.spec?.selector, other.spec?.template.metadata?.labels ?? {}),
    );
    expect(selected.map(({ metadata }) => metadata.name)).toEqual([webName]);

    // Scaled and drained as the agents are (defaults), sized as what it is: a page and a proxy.
    const hpa = find(objects, "HorizontalPodAutoscaler", webName);
    expect(hpa.spec?.scaleTargetRef).toEqual({ apiVersion: "apps/v1", kind: "Deployment", name: webName });
    expect([hpa.spec?.minReplicas, hpa.spec?.maxReplicas]).toEqual([3, 10]);
    expect(deployment.spec?.replicas).toBeUndefined();
    const pdb = find(objects, "PodDisruptionBudget", webName);
    expect(pdb.spec?.maxUnavailable).toBe(1);
    expect(pdb.spec?.selector?.matchLabels).toEqual(deployment.spec?.selector.matchLabels);
    expect(container.resources).toEqual({
      requests: { cpu: "100m", memory: "128Mi" },
      limits: { cpu: "500m", memory: "256Mi" },
    });
    for (const object of webObjects(objects)) {
      expect(validateManifest(object), `${object.kind} ${object.metadata.name}`).toEqual([]);
    }
    expect(
      webObjects(objects)
        .map(({ kind }) => kind)
        .sort(),
    ).toEqual([
      "ConfigMap",
      "Deployment",
      "HorizontalPodAutoscaler",
      "Ingress",
      "PodDisruptionBudget",
      "Service",
    ]);
  });

  it("points SWITCHBOARD_URL at the supervisor Service of the same release, and passes its sign-in settings", async () => {
    for (const objects of [await full(), await render({ web: { enabled: true } })]) {
      const env = plainValues(containerEnv(objects, find(objects, "Deployment", webName)));
      const target = new URL(env.SWITCHBOARD_URL ?? "");
      const supervisorService = find(objects, "Service", target.hostname);
      expect(supervisorService.metadata.labels).toMatchObject({
        "app.kubernetes.io/instance": release,
        "app.kubernetes.io/component": SUPERVISOR,
      });
      expect(supervisorService.spec?.ports?.map(({ port }) => port)).toEqual([Number(target.port)]);
      const supervisorPods = ofKind(objects, "Deployment").filter((deployment) =>
        selects(supervisorService.spec?.selector, deployment.spec?.template.metadata?.labels ?? {}),
      );
      expect(supervisorPods.map(({ metadata }) => metadata.name)).toEqual([objectName(SUPERVISOR)]);
      expect(env.SWITCHBOARD_URL).toBe(serviceUrl(supervisor));
      expect(env).toMatchObject({ PORT: String(WEB_UI_PORT), HOST: "0.0.0.0" });
      // The agents' settings: not the web chat's.
      expect(env).not.toHaveProperty("AGENT_PUBLIC_URL");
      expect(Object.keys(env).filter((key) => isWiring(key))).toEqual([]);
    }
    // AUTH_MODE follows the agents' (config) unless web.env sets it; OIDC_* are web.env's.
    expect(plainValues(containerEnv(await full(), find(await full(), "Deployment", webName)))).toMatchObject({
      AUTH_MODE: "jwt",
      ...oidc,
    });
    const own = await render({
      web: { enabled: true, env: { AUTH_MODE: "jwt", ...oidc, OIDC_SCOPE: "openid profile agents" } },
    });
    const ownEnv = plainValues(containerEnv(own, find(own, "Deployment", webName)));
    expect(ownEnv).toMatchObject({ AUTH_MODE: "jwt", ...oidc, OIDC_SCOPE: "openid profile agents" });
    expect(find(own, "ConfigMap", webName).data).toMatchObject({ AUTH_MODE: "jwt", ...oidc });
    const none = await render({ web: { enabled: true } });
    const noneEnv = plainValues(containerEnv(none, find(none, "Deployment", webName)));
    expect(noneEnv.AUTH_MODE).toBe("none");
    expect(Object.keys(noneEnv).filter((key) => key.startsWith("OIDC_"))).toEqual([]);
  });

  it("refuses a web chat that could not start: AUTH_MODE=jwt without OpenID Connect, or the chart's own variables", async () => {
    expect(await refusal({ values: { config: { AUTH_MODE: "jwt" }, web: { enabled: true } } })).toContain(
      "web: AUTH_MODE=jwt: the web chat signs users in with OpenID Connect; set web.env.OIDC_ISSUER",
    );
    expect(
      await refusal({
        values: { web: { enabled: true, env: { AUTH_MODE: "jwt", OIDC_ISSUER: oidc.OIDC_ISSUER } } },
      }),
    ).toContain("web.env.OIDC_CLIENT_ID");
    expect(
      await refusal({ values: { web: { enabled: true, env: { OIDC_ISSUER: "idp.example.com" } } } }),
    ).toMatch(/OIDC_ISSUER/);
    expect(
      await refusal({
        values: { web: { enabled: true, env: { SWITCHBOARD_URL: "http://elsewhere:8000" } } },
      }),
    ).toContain("web.env.SWITCHBOARD_URL is set by the chart");
    expect(await refusal({ values: { web: { enabled: true, env: { SOME_TOKEN: "t" } } } })).toContain(
      "web.env.SOME_TOKEN looks secret",
    );
  });

  it("probes the web chat's server on its port: startup and liveness on /health, readiness on /ready", async () => {
    const objects = await full();
    const container = containerOf(find(objects, "Deployment", webName));
    const env = plainValues(containerEnv(objects, find(objects, "Deployment", webName)));
    const portNamed = (port: unknown) => container.ports?.find(({ name }) => name === port)?.containerPort;
    expect(container.startupProbe?.httpGet?.path).toBe("/health");
    expect(container.livenessProbe?.httpGet?.path).toBe("/health");
    expect(container.readinessProbe?.httpGet?.path).toBe("/ready");
    for (const probe of [container.startupProbe, container.livenessProbe, container.readinessProbe]) {
      // The named port is the one the server listens on (PORT).
      expect(portNamed(probe?.httpGet?.port)).toBe(Number(env.PORT));
    }
  });

  it("answers its probes: the real server (tools/web's build), started with the env the chart renders", async () => {
    const objects = await full();
    const deployment = find(objects, "Deployment", webName);
    const container = containerOf(deployment);
    const env = plainValues(containerEnv(objects, deployment));
    // The pod's environment, bar the listening address (a free loopback port here).
    const server = await startWebServer(repoRoot, env);
    try {
      const probes = [container.startupProbe, container.livenessProbe, container.readinessProbe];
      for (const probe of probes) {
        const path = probe?.httpGet?.path ?? "";
        const answer = await fetch(`${server.url}${path}`);
        expect(answer.status, `GET ${path}`).toBe(200);
        expect(await answer.json(), `GET ${path}`).toMatchObject({ service: "web" });
      }
      // It took the chart's settings: the sign-in it offers the page, the supervisor it forwards to.
      expect(await (await fetch(`${server.url}/config.json`)).json()).toEqual({
        signIn: {
          mode: "oidc",
          issuer: oidc.OIDC_ISSUER,
          clientId: oidc.OIDC_CLIENT_ID,
          scope: "openid profile",
        },
      });
      expect(server.output()).toContain(`"supervisor":"${serviceUrl(supervisor)}"`);
    } finally {
      await server.stop();
    }
  });

  it("routes the ingress to the web chat, and a path marked component: supervisor to the supervisor", async () => {
    const objects = await full();
    const [ingress, ...more] = ofKind(objects, "Ingress");
    expect(more).toEqual([]);
    expect(ingress?.metadata.name).toBe(webName);
    expect(ingress?.metadata.labels).toMatchObject({ "app.kubernetes.io/component": "web" });
    const backend = { service: { name: webName, port: { number: WEB_UI_PORT } } };
    expect(ingress?.spec?.rules).toEqual([
      { host, http: { paths: [{ path: "/", pathType: "Prefix", backend }] } },
    ]);
    expect(find(objects, "Service", webName).spec?.ports?.[0]?.port).toBe(WEB_UI_PORT);
    // The browser reaches the supervisor through the web chat: its card keeps its Service URL.
    const supervisorEnv = plainValues(
      containerEnv(objects, find(objects, "Deployment", objectName(SUPERVISOR))),
    );
    expect(supervisorEnv.AGENT_PUBLIC_URL).toBe(serviceUrl(supervisor));

    const a2aHost = "a2a.example.com";
    const split = await render({
      ...fullValues,
      ingress: {
        ...fullValues.ingress,
        hosts: [
          { host, paths: [{ path: "/" }] },
          { host: a2aHost, paths: [{ path: "/", pathType: "Prefix", component: "supervisor" }] },
        ],
      },
    });
    const rules = ofKind(split, "Ingress")[0]?.spec?.rules ?? [];
    expect(rules.map((rule) => [rule.host, rule.http?.paths[0]?.backend.service?.name])).toEqual([
      [host, webName],
      [a2aHost, objectName(SUPERVISOR)],
    ]);
    const splitEnv = plainValues(containerEnv(split, find(split, "Deployment", objectName(SUPERVISOR))));
    expect(splitEnv.AGENT_PUBLIC_URL).toBe(`http://${a2aHost}`);
    expect(
      await refusal({
        values: {
          ...withoutWeb,
          ingress: { enabled: true, hosts: [{ host, paths: [{ path: "/", component: "web" }] }] },
        },
      }),
    ).toContain("goes to component web, which is not deployed");
  });

  it("renders nothing web with web.enabled=false (the default)", async () => {
    for (const objects of [await defaults(), await render(withoutWeb)]) {
      expect(webObjects(objects)).toEqual([]);
      expect(JSON.stringify(objects)).not.toContain(webName);
    }
  });
});

describe("the Slack relay in the Helm chart (slackBot.enabled)", () => {
  const slackBotName = `${fullname}-slack-bot`;

  it("deploys component slack-bot talking to this release's supervisor, its tokens from the Secret, its links offered by the web chat", async () => {
    const objects = await render({
      web: { enabled: true },
      slackBot: { enabled: true, env: { CAIPE_UI_BASE_URL: `https://${host}` } },
      secrets: { values: { SLACK_INTEGRATION_BOT_TOKEN: "xoxb-1", SLACK_INTEGRATION_APP_TOKEN: "xapp-1" } },
    });
    const deployment = find(objects, "Deployment", slackBotName);
    expect(validateManifest(deployment)).toEqual([]);
    expect(deployment.spec?.template.metadata?.labels).toMatchObject({
      "app.kubernetes.io/component": "slack-bot",
    });
    const container = containerOf(deployment);
    expect(container.ports).toEqual([{ name: "http", containerPort: 3001, protocol: "TCP" }]);
    expect(container.readinessProbe?.httpGet?.path).toBe("/ready");
    const env = containerEnv(objects, deployment);
    const plain = plainValues(env);
    expect(plain.CAIPE_URL).toBe(`http://${objectName(SUPERVISOR)}:${supervisor.port}`);
    expect(plain).toMatchObject({
      SLACK_INTEGRATION_BOT_MODE: "socket",
      CAIPE_UI_BASE_URL: `https://${host}`,
    });
    for (const key of [
      "SLACK_INTEGRATION_BOT_TOKEN",
      "SLACK_INTEGRATION_APP_TOKEN",
      "MONGODB_URI",
      "CREDENTIALS_ENCRYPTION_KEY",
    ]) {
      expect(env[key], key).toMatchObject({ secret: fullname, key });
    }
    const service = find(objects, "Service", slackBotName);
    expect(validateManifest(service)).toEqual([]);
    const web = plainValues(containerEnv(objects, find(objects, "Deployment", webName)));
    expect(web.SLACK_BOT_URL).toBe(`http://${slackBotName}:3001`);
  });

  it("renders nothing of it with slackBot.enabled=false (the default)", async () => {
    const objects = await defaults();
    expect(JSON.stringify(objects)).not.toContain(slackBotName);
    expect(JSON.stringify(objects)).not.toContain("SLACK_BOT_URL");
  });
});

describe("the Webex relay in the Helm chart (webexBot.enabled)", () => {
  const webexBotName = `${fullname}-webex-bot`;

  it("deploys component webex-bot talking to this release's supervisor, its token and webhook secret from the Secret", async () => {
    const objects = await render({
      webexBot: { enabled: true, env: { WEBEX_WEBHOOK_URL: `https://webex.${host}` } },
      secrets: { values: { WEBEX_TOKEN: "webex-token", WEBEX_WEBHOOK_SECRET: "webex-secret-0123456789" } },
    });
    const deployment = find(objects, "Deployment", webexBotName);
    expect(validateManifest(deployment)).toEqual([]);
    expect(deployment.spec?.template.metadata?.labels).toMatchObject({
      "app.kubernetes.io/component": "webex-bot",
    });
    const container = containerOf(deployment);
    expect(container.ports).toEqual([{ name: "http", containerPort: 3003, protocol: "TCP" }]);
    expect(container.readinessProbe?.httpGet?.path).toBe("/ready");
    const env = containerEnv(objects, deployment);
    const plain = plainValues(env);
    expect(plain.CAIPE_URL).toBe(`http://${objectName(SUPERVISOR)}:${supervisor.port}`);
    expect(plain.WEBEX_WEBHOOK_URL).toBe(`https://webex.${host}`);
    for (const key of ["WEBEX_TOKEN", "WEBEX_WEBHOOK_SECRET", "MONGODB_URI"]) {
      expect(env[key], key).toMatchObject({ secret: fullname, key });
    }
    expect(validateManifest(find(objects, "Service", webexBotName))).toEqual([]);
  });

  it("renders nothing of it with webexBot.enabled=false (the default)", async () => {
    expect(JSON.stringify(await defaults())).not.toContain(webexBotName);
  });
});

describe("the knowledge base in the Helm chart (ragServer.enabled)", () => {
  const ragServerName = `${fullname}-rag-server`;

  it("deploys component rag-server on 9446, points the supervisor at it, and takes requests only from the supervisor and web chat", async () => {
    const objects = await render({
      ragServer: { enabled: true, secretKeys: ["KNOWLEDGE_POSTGRES_DSN"] },
      secrets: { values: { KNOWLEDGE_POSTGRES_DSN: "postgres://kb:kb-password@pg:5432/kb" } },
      networkPolicy: { enabled: true },
    });
    const deployment = find(objects, "Deployment", ragServerName);
    expect(validateManifest(deployment)).toEqual([]);
    const container = containerOf(deployment);
    expect(container.ports).toEqual([{ name: "http", containerPort: 9446, protocol: "TCP" }]);
    expect(container.readinessProbe?.httpGet?.path).toBe("/ready");
    const env = containerEnv(objects, deployment);
    expect(env.KNOWLEDGE_POSTGRES_DSN).toMatchObject({ secret: fullname, key: "KNOWLEDGE_POSTGRES_DSN" });
    const supervisorEnv = plainValues(
      containerEnv(objects, find(objects, "Deployment", objectName(SUPERVISOR))),
    );
    expect(supervisorEnv.ENABLE_RAG).toBe("true");
    expect(supervisorEnv.RAG_SERVER_URL).toBe(`http://${ragServerName}:9446`);
    const policy = find(objects, "NetworkPolicy", ragServerName);
    expect(validateManifest(policy)).toEqual([]);
    expect(JSON.stringify(policy)).toContain('"app.kubernetes.io/component":"supervisor"');
  });

  it("renders nothing of it with ragServer.enabled=false (the default), and leaves the supervisor's ENABLE_RAG to you", async () => {
    const objects = JSON.stringify(await defaults());
    expect(objects).not.toContain(ragServerName);
    expect(objects).not.toContain("RAG_SERVER_URL");
  });
});
