import type { IDeployment } from "kubernetes-models/apps/v1/Deployment";
import type { IHorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler";
import type { IIngress } from "kubernetes-models/networking.k8s.io/v1/Ingress";
import type { INetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import type { INetworkPolicyPeer } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicyPeer";
import type { IPodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import type { IConfigMap } from "kubernetes-models/v1/ConfigMap";
import type { IContainer } from "kubernetes-models/v1/Container";
import type { ISecret } from "kubernetes-models/v1/Secret";
import type { IService } from "kubernetes-models/v1/Service";
import type { IServiceAccount } from "kubernetes-models/v1/ServiceAccount";
import type { KubeObject } from "../src/chart.js";

/** The kinds the chart renders, by kind, typed by kubernetes-models. */
export interface Kinds {
  ConfigMap: IConfigMap;
  Deployment: IDeployment;
  HorizontalPodAutoscaler: IHorizontalPodAutoscaler;
  Ingress: IIngress;
  NetworkPolicy: INetworkPolicy;
  PodDisruptionBudget: IPodDisruptionBudget;
  Secret: ISecret;
  Service: IService;
  ServiceAccount: IServiceAccount;
}

export function ofKind<K extends keyof Kinds>(objects: KubeObject[], kind: K): Array<Kinds[K] & KubeObject> {
  return objects.filter((object) => object.kind === kind) as Array<Kinds[K] & KubeObject>;
}

/** The one object of a kind and name; fails the test when it is missing. */
export function find<K extends keyof Kinds>(
  objects: KubeObject[],
  kind: K,
  name: string,
): Kinds[K] & KubeObject {
  const found = ofKind(objects, kind).find((object) => object.metadata.name === name);
  if (!found) {
    const names = ofKind(objects, kind).map((object) => object.metadata.name);
    throw new Error(`No ${kind} ${name} among ${names.join(", ") || "none"}`);
  }
  return found;
}

/** A Deployment's only container. */
export function containerOf(deployment: IDeployment): IContainer {
  const containers = deployment.spec?.template.spec?.containers ?? [];
  if (containers.length !== 1)
    throw new Error(`${deployment.metadata?.name} has ${containers.length} containers`);
  return containers[0] as IContainer;
}

export type EnvSource = { value: string } | { secret: string; key: string; optional: boolean };

/**
 * A container's environment as Kubernetes builds it: each envFrom ConfigMap in order (later wins),
 * then env (wins over envFrom). Fails when a referenced ConfigMap is not rendered.
 */
export function containerEnv(objects: KubeObject[], deployment: IDeployment): Record<string, EnvSource> {
  const container = containerOf(deployment);
  const env: Record<string, EnvSource> = {};
  for (const from of container.envFrom ?? []) {
    if (!from.configMapRef?.name) throw new Error(`envFrom without a configMapRef: ${JSON.stringify(from)}`);
    const configMap = find(objects, "ConfigMap", from.configMapRef.name);
    for (const [key, value] of Object.entries(configMap.data ?? {})) env[key] = { value };
  }
  for (const variable of container.env ?? []) {
    const ref = variable.valueFrom?.secretKeyRef;
    env[variable.name] = ref
      ? { secret: ref.name ?? "", key: ref.key, optional: ref.optional === true }
      : { value: variable.value ?? "" };
  }
  return env;
}

/** The plain (non-secret) values of an environment. */
export function plainValues(env: Record<string, EnvSource>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).flatMap(([key, source]) => ("value" in source ? [[key, source.value]] : [])),
  );
}

/** Whether every label a selector asks for is on a pod. */
export function selects(
  matchLabels: Record<string, string> | undefined,
  labels: Record<string, string>,
): boolean {
  return Object.entries(matchLabels ?? {}).every(([key, value]) => labels[key] === value);
}

/** A label selector, as Deployments, PDBs, NetworkPolicies and ServiceMonitors carry it. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

/** Whether a label selector (matchLabels and matchExpressions) selects these labels. */
export function selectorSelects(
  selector: LabelSelector | undefined,
  labels: Record<string, string>,
): boolean {
  if (!selects(selector?.matchLabels, labels)) return false;
  return (selector?.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    switch (operator) {
      case "In":
        return key in labels && values.includes(labels[key] as string);
      case "NotIn":
        return !(key in labels) || !values.includes(labels[key] as string);
      case "Exists":
        return key in labels;
      case "DoesNotExist":
        return !(key in labels);
      default:
        throw new Error(`Unknown label selector operator ${operator}`);
    }
  });
}

/**
 * Whether a NetworkPolicy peer admits a pod with these labels in the policy's own namespace: a
 * podSelector alone means "pods of this namespace"; anything with a namespaceSelector or ipBlock is
 * treated as not matching in-namespace pods (the tests hold those apart).
 */
export function peerAdmits(peer: INetworkPolicyPeer, labels: Record<string, string>): boolean {
  if (peer.namespaceSelector || peer.ipBlock || !peer.podSelector) return false;
  if (peer.podSelector.matchExpressions?.length) throw new Error("matchExpressions are not modelled here");
  return selects(peer.podSelector.matchLabels, labels);
}
