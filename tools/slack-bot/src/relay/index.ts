/**
 * The platform-neutral relay, for the other chat bots (tools/webex-bot): a platform adapter
 * implements ChatPlatform and feeds the Relay its messages and button presses.
 */
export { createRelayMetrics, type RelayMetrics } from "../telemetry/metrics.js";
export { startTracing, tracingEnabled } from "../telemetry/tracing.js";
export type {
  ChatPlace,
  ChatPlatform,
  ConfirmationView,
  IncomingDecision,
  IncomingMessage,
  OutgoingMessage,
} from "./chat-platform.js";
export { contextIdFor } from "./conversation-id.js";
export { anonymousIdentities, type Identities, type UserIdentity } from "./identities.js";
export { Relay, type RelayDeps } from "./relay.js";
export { claim, type RelayCollections, relayCollections } from "./store.js";
