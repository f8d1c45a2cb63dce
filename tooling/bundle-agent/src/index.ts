export { type BundleReport, bundleAgent, RUNTIME_PACKAGE } from "./bundle.js";
