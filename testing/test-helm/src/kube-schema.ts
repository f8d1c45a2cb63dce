import { ServiceMonitor } from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler";
import { Ingress } from "kubernetes-models/networking.k8s.io/v1/Ingress";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Secret } from "kubernetes-models/v1/Secret";
import { Service } from "kubernetes-models/v1/Service";
import { ServiceAccount } from "kubernetes-models/v1/ServiceAccount";

interface Validatable {
  validate(): void;
}

/**
 * The kinds a chart may render, each with its JSON schema: the Kubernetes API's OpenAPI schemas as
 * kubernetes-models compiles them, and the Prometheus Operator's published CRD schema for
 * ServiceMonitor. A kind missing here fails validation, so a new template needs its schema added.
 */
const MODELS: Record<string, new (data: never) => Validatable> = {
  "apps/v1/Deployment": Deployment,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "networking.k8s.io/v1/Ingress": Ingress,
  "networking.k8s.io/v1/NetworkPolicy": NetworkPolicy,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "v1/ConfigMap": ConfigMap,
  "v1/Secret": Secret,
  "v1/Service": Service,
  "v1/ServiceAccount": ServiceAccount,
  "monitoring.coreos.com/v1/ServiceMonitor": ServiceMonitor,
};

/** The kinds validateManifest knows, as `<apiVersion>/<kind>`. */
export const VALIDATED_KINDS = Object.keys(MODELS);

/**
 * What is wrong with one object by its API schema: types, required fields, enums, formats (int32
 * ports, quantities). Empty when it is valid. Kubernetes' schemas allow unknown fields (the API
 * server drops them), so a misspelt field name passes here; tests that read the fields catch those.
 */
export function validateManifest(object: {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: unknown;
}): string[] {
  const name = (object.metadata as { name?: unknown } | undefined)?.name;
  const what = `${String(object.kind)} ${String(name)}`;
  const Model = MODELS[`${String(object.apiVersion)}/${String(object.kind)}`];
  if (!Model) {
    return [`${what}: no schema for apiVersion ${String(object.apiVersion)} kind ${String(object.kind)}`];
  }
  try {
    new Model(object as never).validate();
    return [];
  } catch (error) {
    return [`${what}: ${(error as Error).message}`];
  }
}
