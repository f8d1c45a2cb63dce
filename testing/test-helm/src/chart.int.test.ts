import {
  type AgentPackage,
  agentUrlVariableFor,
  enableVariableFor,
  listAgentPackages,
  SUPERVISOR,
  serviceNameFor,
} from "@switchboard/contract";
import { describe, expect, it } from "vitest";
import {
  containerEnv,
  containerOf,
  find,
  ofKind,
  peerAdmits,
  plainValues,
  selects,
} from "../test/manifests.js";
import { type ChartOptions, type KubeObject, lintChart, renderChart, templateChart } from "./chart.js";
import { findRepoRoot } from "./helm.js";
import { validateManifest } from "./kube-schema.js";

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
/** Everything optional on: settings, credentials, ingress, ServiceMonitor, NetworkPolicy, the web UI switch. */
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
  web: { enabled: true },
};
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
          .filter((key) => /^ENABLE_|_AGENT_URL$/.test(key))
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
      expect(Object.keys(env).filter((key) => key.startsWith("ENABLE_"))).toEqual([]);
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
    expect(Object.keys(env).filter((key) => /^ENABLE_|_AGENT_URL$/.test(key))).toEqual([]);
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
    for (const deployment of ofKind(objects, "Deployment")) {
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
      [false, await render({ ...fullValues, web: { enabled: false } })],
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
        ).toEqual([objectName(SUPERVISOR)]);
        expect(admitted(webPod)).toBe(webEnabled);
        expect(admitted(otherReleaseSupervisor)).toBe(false);
        // The second rule is networkPolicy.metricsFrom as given: Prometheus' namespace, nothing in ours.
        expect(metrics?.from).toEqual(fullValues.networkPolicy.metricsFrom);
      }
    }
    // Off by default.
    expect(ofKind(defaultObjects, "NetworkPolicy")).toEqual([]);
  });

  it("routes the ingress to the supervisor, whose agent card then carries the public URL", async () => {
    const defaultObjects = await defaults();
    const fullObjects = await full();
    const [ingress, ...more] = ofKind(fullObjects, "Ingress");
    expect(more).toEqual([]);
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
    const env = plainValues(
      containerEnv(fullObjects, find(fullObjects, "Deployment", objectName(SUPERVISOR))),
    );
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
      selector: { matchLabels: Record<string, string> };
      namespaceSelector: { matchNames: string[] };
      endpoints: Array<{ port: string; path: string }>;
    };
    expect(monitors[0]?.apiVersion).toBe("monitoring.coreos.com/v1");
    expect(monitors[0]?.metadata.labels).toMatchObject({ release: "kube-prometheus-stack" });
    expect(spec.namespaceSelector.matchNames).toEqual([namespace]);
    expect(spec.endpoints).toEqual([expect.objectContaining({ port: "http", path: "/metrics" })]);
    const services = ofKind(fullObjects, "Service");
    expect(
      services.filter(({ metadata }) => selects(spec.selector.matchLabels, metadata.labels ?? {})),
    ).toHaveLength(agents.length);
    for (const service of services) expect(service.spec?.ports?.map(({ name }) => name)).toContain("http");
    expect(defaultObjects.filter(({ kind }) => kind === "ServiceMonitor")).toEqual([]);
  });

  it("names images as the Dockerfile and docker-compose.dev.yaml do: <prefix>/<supervisor|agent-name>:<tag>", async () => {
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
