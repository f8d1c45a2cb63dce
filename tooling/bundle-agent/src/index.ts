export { type BundleOptions, type BundleReport, bundleAgent, KEPT_OUT, RUNTIME_PACKAGE } from "./bundle.js";
