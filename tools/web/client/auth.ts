import { type User, UserManager, WebStorageStateStore } from "oidc-client-ts";
import type { SignIn } from "./config.js";

const CALLBACK_PATH = "/auth/callback";

/** Who is signed in: the access token sent to the supervisor, and a name to show. */
export interface Session {
  token: string;
  name: string;
}

/**
 * OpenID Connect sign-in (authorization code with PKCE, a public client). Tokens stay in session
 * storage: gone when the tab closes, never in local storage or cookies.
 */
export class OidcSignIn {
  private readonly manager: UserManager;

  constructor(settings: Extract<SignIn, { mode: "oidc" }>) {
    const store = new WebStorageStateStore({ store: window.sessionStorage });
    this.manager = new UserManager({
      authority: settings.issuer,
      client_id: settings.clientId,
      scope: settings.scope,
      redirect_uri: `${location.origin}${CALLBACK_PATH}`,
      post_logout_redirect_uri: `${location.origin}/`,
      response_type: "code",
      userStore: store,
      stateStore: store,
      automaticSilentRenew: false,
    });
  }

  /** On the redirect back from the identity provider: finishes sign-in, returns where the user was. */
  async finishIfReturning(): Promise<string | undefined> {
    if (location.pathname !== CALLBACK_PATH) return undefined;
    const user = await this.manager.signinRedirectCallback();
    const returnTo = (user.state as { returnTo?: string } | undefined)?.returnTo;
    return returnTo?.startsWith("/") && !returnTo.startsWith("//") ? returnTo : "/";
  }

  /** The signed-in user, unless there is none or their token expired. */
  async session(): Promise<Session | undefined> {
    const user = await this.manager.getUser();
    if (!user || user.expired) return undefined;
    return { token: user.access_token, name: displayName(user) };
  }

  signIn(returnTo: string): Promise<void> {
    return this.manager.signinRedirect({ state: { returnTo } });
  }

  /** Forgets the tokens, then ends the provider's session where it offers that. */
  async signOut(): Promise<void> {
    const user = await this.manager.getUser();
    await this.manager.removeUser();
    try {
      await this.manager.signoutRedirect(user?.id_token ? { id_token_hint: user.id_token } : {});
    } catch {
      location.assign("/");
    }
  }
}

function displayName(user: User): string {
  const { name, preferred_username, email, sub } = user.profile;
  return String(name ?? preferred_username ?? email ?? sub);
}
