/**
 * Linking chat users to their sign-in, for the other chat bots (tools/webex-bot): the one-time link,
 * its pages under the web chat's origin, the sealed identities, and forget-me.
 */
export { forgetRoute } from "./forget-route.js";
export { linkRoutes } from "./link-routes.js";
export {
  LINK_TTL_MS,
  LinkedIdentities,
  type LinkingBot,
  type PendingLink,
} from "./linked-identities.js";
export { OidcClient } from "./oidc.js";
