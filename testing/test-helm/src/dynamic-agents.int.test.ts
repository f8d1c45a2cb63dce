// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings hold CAIPE app-config text, ${VAR:-default} included.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  type AgentPackage,
  agentUrlVariableFor,
  enableVariableFor,
  hostUrlVariableFor,
  isFeatureFlag,
  listAgentPackages,
  listHostPackages,
  SUPERVISOR,
  serviceNameFor,
} from "@switchboard/contract";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
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
import { type ChartOptions, type KubeObject, lintChart, renderChart, templateChart } from "./chart.js";
import { findRepoRoot } from "./helm.js";
import { validateManifest } from "./kube-schema.js";

// The host of agents made from configuration (agents/dynamic-agents) in the chart: dynamicAgents.

const repoRoot = findRepoRoot();
const [host] = listHostPackages(repoRoot) as [AgentPackage];
const subagents = listAgentPackages(repoRoot).filter(({ name }) => name !== SUPERVISOR);

const release = "sb";
const namespace = "fleet";
const fullname = `${release}-switchboard`;
const hostName = `${fullname}-${serviceNameFor(host.name, host.kind)}`;
const hostUrl = `http://${hostName}:${host.port}`;
const supervisorName = `${fullname}-${serviceNameFor(SUPERVISOR)}`;
const webName = `${fullname}-web`;
/** The supervisor's variable for the host: CAIPE's DYNAMIC_AGENTS_URL. */
const urlVariable = hostUrlVariableFor(host.name);
/** The supervisor's wiring to one agent (ENABLE_<AGENT>, <AGENT>_AGENT_URL), which a host never gets. */
const isWiring = (key: string) => /^ENABLE_|_AGENT_URL$/.test(key) && !isFeatureFlag(key);

/** The example npm start runs, as the file's text (what --set-file dynamicAgents.appConfig=… hands the chart). */
const appConfigText = readFileSync(join(repoRoot, "tools", "fleet", "config", "app-config.yaml"), "utf8");
/** The same kind of file as values. */
const appConfigValues = {
  models: [{ model_id: "gpt-4o", name: "GPT-4o", provider: "openai" }],
  mcp_servers: [
    {
      id: "github",
      name: "GitHub",
      transport: "http",
      endpoint: "${GITHUB_MCP_URL:-http://github-mcp:8000/mcp}",
    },
  ],
  agents: [
    {
      id: "platform-helper",
      name: "Platform Helper",
      description: "Answers questions about our deployments",
      system_prompt: "You help engineers.",
      model_id: "gpt-4o",
      model_provider: "openai",
      allowed_tools: { github: true },
      visibility: "global",
      enabled: true,
    },
  ],
};
const secretValues = {
  MONGODB_URI: "mongodb://switchboard:m0ngo-Pa55@mongodb.db.svc:27017/switchboard",
  OPENAI_API_KEY: "sk-test-openai-4f1c9e",
  GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_testtoken0123456789abcdef",
  MCP_GATEWAY_TOKEN: "mcp-gateway-token-5e1d",
};
/** The host, the web chat, a NetworkPolicy and a ServiceMonitor on, with the file as values and a secret of its own. */
const hostValues = {
  dynamicAgents: { enabled: true, appConfig: appConfigValues, secretKeys: ["MCP_GATEWAY_TOKEN"] },
  secrets: { values: secretValues },
  web: { enabled: true },
  networkPolicy: { enabled: true },
  serviceMonitor: { enabled: true },
};

const render = (values?: Record<string, unknown>) =>
  renderChart({ release, namespace, ...(values ? { values } : {}) });

async function refusal(options: ChartOptions): Promise<string> {
  const result = await templateChart({ release, namespace, ...options });
  expect(result.code, result.stdout).not.toBe(0);
  return result.stderr;
}

let rendered: Promise<KubeObject[]> | undefined;
/** hostValues, rendered once on first use. */
const withHost = () => {
  rendered ??= render(hostValues);
  return rendered;
};

describe("the host of configured agents in the Helm chart (dynamicAgents)", () => {
  it("passes helm lint --strict with the file as values and as text", async () => {
    for (const appConfig of [appConfigValues, appConfigText]) {
      const result = await lintChart({
        namespace,
        values: { ...hostValues, dynamicAgents: { enabled: true, appConfig } },
      });
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    }
  });

  it("deploys it as component dynamic-agents on its package's port: Deployment, Service, HPA, PDB, ConfigMaps, all valid", async () => {
    const objects = await withHost();
    expect(objects.flatMap(validateManifest)).toEqual([]);
    const component = { "app.kubernetes.io/component": "dynamic-agents" };
    const deployment = find(objects, "Deployment", hostName);
    expect(deployment.spec?.template.metadata?.labels).toMatchObject(component);
    const container = containerOf(deployment);
    // Its agents over gRPC on one port beside HTTP, by tenant (A2A_GRPC_PORT's default, PORT + 1000).
    expect(container.ports).toEqual([
      { name: "http", containerPort: host.port, protocol: "TCP" },
      { name: "grpc", containerPort: (host.port ?? 0) + 1000, protocol: "TCP" },
    ]);
    expect(container.image).toBe("switchboard/dynamic-agents:0.1.0");
    expect(container.readinessProbe?.httpGet?.path).toBe("/ready");
    expect(container.livenessProbe?.httpGet?.path).toBe("/health");
    const service = find(objects, "Service", hostName);
    expect(service.spec?.ports).toEqual([
      expect.objectContaining({ port: host.port, targetPort: "http" }),
      expect.objectContaining({
        port: (host.port ?? 0) + 1000,
        targetPort: "grpc",
        appProtocol: "kubernetes.io/h2c",
      }),
    ]);
    const selected = ofKind(objects, "Deployment").filter((other) =>
      selects(service.spec?.selector, other.spec?.template.metadata?.labels ?? {}),
    );
    expect(selected.map(({ metadata }) => metadata.name)).toEqual([hostName]);
    for (const kind of ["PodDisruptionBudget", "ConfigMap"] as const) {
      expect(find(objects, kind, hostName).metadata?.labels).toMatchObject(component);
    }
    expect(find(objects, "ConfigMap", `${hostName}-app-config`).metadata.labels).toMatchObject(component);
    const env = plainValues(containerEnv(objects, deployment));
    expect(env).toMatchObject({ PORT: String(host.port), HOST: "0.0.0.0", AGENT_PUBLIC_URL: hostUrl });
    expect(Object.keys(env).filter(isWiring)).toEqual([]);
  });

  it("scales as one Deployment with the chart's autoscaling, set again under dynamicAgents", async () => {
    const hpa = find(await withHost(), "HorizontalPodAutoscaler", hostName);
    expect(hpa.spec?.scaleTargetRef).toEqual({ apiVersion: "apps/v1", kind: "Deployment", name: hostName });
    expect([hpa.spec?.minReplicas, hpa.spec?.maxReplicas]).toEqual([3, 10]);
    expect(find(await withHost(), "Deployment", hostName).spec?.replicas).toBeUndefined();
    const own = await render({
      dynamicAgents: {
        enabled: true,
        appConfig: appConfigValues,
        autoscaling: { minReplicas: 2, maxReplicas: 4, targetMemoryUtilizationPercentage: 80 },
      },
    });
    const ownHpa = find(own, "HorizontalPodAutoscaler", hostName);
    expect([ownHpa.spec?.minReplicas, ownHpa.spec?.maxReplicas]).toEqual([2, 4]);
    expect(ownHpa.spec?.metrics?.map((metric) => metric.resource?.name)).toEqual(["cpu", "memory"]);
    // The agents keep the defaults.
    const supervisorHpa = find(own, "HorizontalPodAutoscaler", supervisorName);
    expect([supervisorHpa.spec?.minReplicas, supervisorHpa.spec?.maxReplicas]).toEqual([3, 10]);
    const fixed = await render({
      dynamicAgents: { enabled: true, appConfig: {}, autoscaling: { enabled: false }, replicaCount: 2 },
    });
    expect(ofKind(fixed, "HorizontalPodAutoscaler").map(({ metadata }) => metadata.name)).not.toContain(
      hostName,
    );
    expect(find(fixed, "Deployment", hostName).spec?.replicas).toBe(2);
  });

  it("mounts the app-config file from its values at APP_CONFIG_FILE, read-only, as the file's folder", async () => {
    for (const [appConfig, expected] of [
      [appConfigValues, appConfigValues],
      [appConfigText, parse(appConfigText)],
    ] as const) {
      const objects = await render({ dynamicAgents: { enabled: true, appConfig } });
      const deployment = find(objects, "Deployment", hostName);
      const file = plainValues(containerEnv(objects, deployment)).APP_CONFIG_FILE ?? "";
      const configMap = find(objects, "ConfigMap", `${hostName}-app-config`);
      const text = configMap.data?.["app-config.yaml"] ?? "";
      expect(parse(text)).toEqual(expected);
      // Text given is kept as written: CAIPE's comments and ${VAR:-default} stay for the host to read.
      if (typeof appConfig === "string") expect(text.trim()).toBe(appConfig.trim());

      const mount = containerOf(deployment).volumeMounts?.find(
        ({ mountPath }) => mountPath === dirname(file),
      );
      expect(mount, `a volume at ${dirname(file)}`).toBeDefined();
      expect(mount?.readOnly).toBe(true);
      // A subPath mount would never see the kubelet's update of an edited ConfigMap.
      expect(mount?.subPath).toBeUndefined();
      const volume = deployment.spec?.template.spec?.volumes?.find(({ name }) => name === mount?.name);
      expect(volume?.configMap?.name).toBe(configMap.metadata.name);
      expect(file.endsWith("/app-config.yaml")).toBe(true);
    }
  });

  it("lets an edited file reach the running pods without rolling them: the pod template does not change", async () => {
    const before = await render({ dynamicAgents: { enabled: true, appConfig: appConfigValues } });
    const edited = structuredClone(appConfigValues);
    (edited.agents[0] as { system_prompt: string }).system_prompt = "You help engineers, briefly.";
    const after = await render({ dynamicAgents: { enabled: true, appConfig: edited } });
    const data = (objects: KubeObject[]) =>
      find(objects, "ConfigMap", `${hostName}-app-config`).data?.["app-config.yaml"];
    expect(data(after)).not.toEqual(data(before));
    expect(data(after)).toContain("briefly");
    expect(find(after, "Deployment", hostName).spec?.template).toEqual(
      find(before, "Deployment", hostName).spec?.template,
    );
    // A setting of its own still rolls it, as for every component.
    const otherSetting = await render({
      dynamicAgents: { enabled: true, appConfig: appConfigValues, env: { LOG_LEVEL: "debug" } },
    });
    expect(find(otherSetting, "Deployment", hostName).spec?.template.metadata?.annotations).not.toEqual(
      find(before, "Deployment", hostName).spec?.template.metadata?.annotations,
    );
  });

  it("points the supervisor and the web chat at it by DYNAMIC_AGENTS_URL, never as one agent", async () => {
    const objects = await withHost();
    const supervisorEnv = plainValues(containerEnv(objects, find(objects, "Deployment", supervisorName)));
    expect(supervisorEnv[urlVariable]).toBe(hostUrl);
    // Its Service is the host's own.
    const service = find(objects, "Service", new URL(supervisorEnv[urlVariable] ?? "").hostname);
    expect(service.metadata.labels).toMatchObject({ "app.kubernetes.io/component": "dynamic-agents" });
    expect(Object.keys(supervisorEnv).filter(isWiring).sort()).toEqual(
      subagents.flatMap(({ name }) => [enableVariableFor(name), agentUrlVariableFor(name)]).sort(),
    );
    expect(plainValues(containerEnv(objects, find(objects, "Deployment", webName)))[urlVariable]).toBe(
      hostUrl,
    );
    // The agents do not get it.
    for (const agent of subagents) {
      const env = plainValues(
        containerEnv(objects, find(objects, "Deployment", `${fullname}-agent-${agent.name}`)),
      );
      expect(env, agent.name).not.toHaveProperty(urlVariable);
    }
  });

  it("renders nothing for it and points nobody at it when off (the default)", async () => {
    const objects = await render({ web: { enabled: true }, networkPolicy: { enabled: true } });
    expect(
      objects.filter(
        ({ metadata }) =>
          metadata.labels?.["app.kubernetes.io/component"] === "dynamic-agents" ||
          metadata.name.startsWith(hostName),
      ),
    ).toEqual([]);
    for (const name of [supervisorName, webName]) {
      expect(plainValues(containerEnv(objects, find(objects, "Deployment", name)))).not.toHaveProperty(
        urlVariable,
      );
    }
  });

  it("gives it MongoDB and the LLM keys and its own secretKeys, no other agent's, and no secret in a ConfigMap", async () => {
    const objects = await withHost();
    const env = containerEnv(objects, find(objects, "Deployment", hostName));
    for (const key of ["MONGODB_URI", "OPENAI_API_KEY", "MCP_GATEWAY_TOKEN"]) {
      expect(env[key], key).toEqual({ secret: fullname, key, optional: true });
    }
    expect(env).not.toHaveProperty("GITHUB_PERSONAL_ACCESS_TOKEN");
    // Its own key is not handed to the agents.
    const github = containerEnv(objects, find(objects, "Deployment", `${fullname}-agent-github`));
    expect(github).not.toHaveProperty("MCP_GATEWAY_TOKEN");
    const configMapText = JSON.stringify(ofKind(objects, "ConfigMap"));
    for (const value of Object.values(secretValues)) expect(configMapText).not.toContain(value);
    // The file refers to secrets by ${VAR}: the host fills them in, the ConfigMap never holds them.
    expect(find(objects, "ConfigMap", `${hostName}-app-config`).data?.["app-config.yaml"]).toContain(
      "${GITHUB_MCP_URL:-http://github-mcp:8000/mcp}",
    );
  });

  it("admits only the supervisor and the web chat to it by NetworkPolicy, and scrapes its /metrics", async () => {
    const objects = await withHost();
    const policy = find(objects, "NetworkPolicy", hostName);
    const pods = ofKind(objects, "Deployment").map((deployment) => ({
      name: deployment.metadata?.name ?? "",
      labels: deployment.spec?.template.metadata?.labels ?? {},
    }));
    expect(
      pods
        .filter(({ labels }) => selects(policy.spec?.podSelector.matchLabels, labels))
        .map(({ name }) => name),
    ).toEqual([hostName]);
    const [fromPods] = policy.spec?.ingress ?? [];
    expect(fromPods?.ports).toEqual([
      { port: host.port, protocol: "TCP" },
      { port: (host.port ?? 0) + 1000, protocol: "TCP" },
    ]);
    expect(
      pods
        .filter(({ labels }) => (fromPods?.from ?? []).some((peer) => peerAdmits(peer, labels)))
        .map(({ name }) => name)
        .sort(),
    ).toEqual([supervisorName, webName].sort());

    const [monitor] = objects.filter(({ kind }) => kind === "ServiceMonitor");
    const selector = (monitor?.spec as { selector: LabelSelector } | undefined)?.selector;
    expect(selectorSelects(selector, find(objects, "Service", hostName).metadata.labels ?? {})).toBe(true);
  });

  it("refuses what it cannot deploy: an unknown key, a file that is neither text nor YAML, a secret in env, a variable the chart sets", async () => {
    expect(
      await refusal({ values: { dynamicAgents: { enabled: true, appConfig: {}, appconfig: {} } } }),
    ).toMatch(/appconfig/);
    expect(await refusal({ values: { dynamicAgents: { enabled: true, appConfig: 42 } } })).toMatch(
      /appConfig/,
    );
    expect(
      await refusal({ values: { dynamicAgents: { enabled: true, appConfig: {}, env: { MCP_TOKEN: "t" } } } }),
    ).toContain("dynamicAgents.env.MCP_TOKEN looks secret");
    expect(
      await refusal({
        values: {
          dynamicAgents: { enabled: true, appConfig: {}, env: { APP_CONFIG_FILE: "/elsewhere.yaml" } },
        },
      }),
    ).toContain("dynamicAgents.env.APP_CONFIG_FILE is set by the chart");
    expect(
      await refusal({ values: { supervisor: { env: { DYNAMIC_AGENTS_URL: "http://x:1" } }, ...hostValues } }),
    ).toContain("supervisor.env.DYNAMIC_AGENTS_URL is set by the chart");
  });

  it("refuses a credential written into the file, which lands in a ConfigMap, and takes it by ${VAR}", async () => {
    const server = (fields: Record<string, unknown>) => ({
      dynamicAgents: {
        enabled: true,
        appConfig: { mcp_servers: [{ id: "github", name: "GitHub", ...fields }] },
      },
    });
    expect(
      await refusal({
        values: server({
          transport: "stdio",
          command: "npx",
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_x1" },
        }),
      }),
    ).toContain(
      "dynamicAgents.appConfig.mcp_servers[github].env.GITHUB_PERSONAL_ACCESS_TOKEN is written in, and this file is a ConfigMap",
    );
    expect(
      await refusal({
        values: server({
          transport: "http",
          endpoint: "http://x/mcp",
          headers: { Authorization: "Bearer abc" },
        }),
      }),
    ).toContain("mcp_servers[github].headers.Authorization is written in");
    // The file's text is held to the same, and a password in a URL too.
    const text = [
      "openapi_sources:",
      "  - id: tickets",
      "    document: https://tickets.example.com/openapi.json",
      "    base_url: https://bot:hunter2@tickets.example.com/api",
    ].join("\n");
    expect(await refusal({ values: { dynamicAgents: { enabled: true, appConfig: text } } })).toContain(
      "dynamicAgents.appConfig.openapi_sources[tickets].base_url carries a password",
    );
    expect(await refusal({ values: { dynamicAgents: { enabled: true, appConfig: "agents: [" } } })).toContain(
      "dynamicAgents.appConfig is not a YAML file",
    );
    // References are what the file should hold: the host fills them in from its Secret keys.
    const referenced = await render(
      server({
        transport: "http",
        endpoint: "https://bot:${GITHUB_MCP_PASSWORD}@github-mcp.example.com/mcp",
        headers: { Authorization: "Bearer ${GITHUB_TOKEN}" },
      }),
    );
    expect(find(referenced, "ConfigMap", `${hostName}-app-config`).data?.["app-config.yaml"]).toContain(
      "Bearer ${GITHUB_TOKEN}",
    );
  });
});
