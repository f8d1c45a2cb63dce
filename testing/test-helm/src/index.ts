export {
  type ChartOptions,
  type HelmResult,
  type KubeObject,
  lintChart,
  parseManifests,
  renderChart,
  runHelm,
  switchboardChart,
  templateChart,
} from "./chart.js";
export {
  type EnsureHelmOptions,
  ensureHelm,
  HELM_KUBE_VERSION,
  HELM_VERSION,
  type Helm,
} from "./helm.js";
export { VALIDATED_KINDS, validateManifest } from "./kube-schema.js";
