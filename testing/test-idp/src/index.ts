export { type BrowsedPage, browse } from "./browse.js";
export { hopKeys } from "./hop-keys.js";
export {
  type IdentityProvider,
  type IdentityProviderOptions,
  startIdentityProvider,
  type TestUser,
} from "./identity-provider.js";
export { signIn } from "./sign-in.js";
