import { parseEnv, SwitchboardError } from "@switchboard/common";
import { WEB_UI_PORT } from "@switchboard/contract";
import { z } from "zod";

const WebEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(WEB_UI_PORT),
  HOST: z.string().default("0.0.0.0"),
  SWITCHBOARD_URL: z.url({ protocol: /^https?$/ }).default("http://localhost:8000"),
  SLACK_BOT_URL: z.url({ protocol: /^https?$/ }).optional(),
  WEBEX_BOT_URL: z.url({ protocol: /^https?$/ }).optional(),
  // CAIPE's name for its dynamic-agents service: the host whose agent API the Configure agents page uses.
  DYNAMIC_AGENTS_URL: z.url({ protocol: /^https?$/ }).optional(),
  // The trigger receiver (tools/triggers), whose run history the Triggers page shows.
  TRIGGERS_URL: z.url({ protocol: /^https?$/ }).optional(),
  // CAIPE's switch for its knowledge base: the Sources page and its calls to RAG_SERVER_URL; off, no Sources page.
  ENABLE_RAG: z.stringbool({ error: "set ENABLE_RAG to true or false" }).default(false),
  // CAIPE's name and default. No credentials in it: the RAG server decides each call on the user's own token.
  RAG_SERVER_URL: z
    .url({ protocol: /^https?$/, error: "use the RAG server's base URL, e.g. http://rag-server:9446" })
    .refine((url) => !new URL(url).username && !new URL(url).password, {
      error:
        "put no user name or password in RAG_SERVER_URL: the RAG server decides each call on the user's own token",
    })
    .default("http://localhost:9446"),
  // Unset: sign-in follows CAIPE's SSO_ENABLED, else none.
  AUTH_MODE: z.enum(["none", "jwt"]).optional(),
  // CAIPE's switch for its UI's single sign-on: true signs users in as AUTH_MODE=jwt does.
  SSO_ENABLED: z.stringbool().optional(),
  OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_SCOPE: z.string().default("openid profile"),
});

/** How the page signs users in: not at all, or with OpenID Connect (code flow with PKCE). */
export type SignIn = { mode: "none" } | { mode: "oidc"; issuer: string; clientId: string; scope: string };

export interface WebSettings {
  port: number;
  host: string;
  /** The supervisor the page talks to through this server. */
  supervisorUrl: URL;
  /** The Slack relay, for its account-link pages. */
  slackBotUrl?: URL;
  /** The Webex bot, for its account-link pages. */
  webexBotUrl?: URL;
  /** The dynamic-agents host, for the Configure agents page; unset: that page says it is off. */
  dynamicAgentsUrl?: URL;
  /** The trigger receiver, for the Triggers page; unset: the page is hidden. */
  triggersUrl?: URL;
  /** The knowledge base's RAG server, for the Sources page; unset when ENABLE_RAG is not true. */
  ragServerUrl?: URL;
  signIn: SignIn;
}

export function readWebSettings(env: NodeJS.ProcessEnv): WebSettings {
  const e = parseEnv(WebEnv, env, { code: "web.config", what: "web chat settings" });
  const settings = {
    port: e.PORT,
    host: e.HOST,
    supervisorUrl: new URL(e.SWITCHBOARD_URL),
    ...(e.SLACK_BOT_URL ? { slackBotUrl: new URL(e.SLACK_BOT_URL) } : {}),
    ...(e.WEBEX_BOT_URL ? { webexBotUrl: new URL(e.WEBEX_BOT_URL) } : {}),
    ...(e.DYNAMIC_AGENTS_URL ? { dynamicAgentsUrl: new URL(e.DYNAMIC_AGENTS_URL) } : {}),
    ...(e.TRIGGERS_URL ? { triggersUrl: new URL(e.TRIGGERS_URL) } : {}),
    ...(e.ENABLE_RAG ? { ragServerUrl: new URL(e.RAG_SERVER_URL) } : {}),
  };
  const by = signInSetting(e.AUTH_MODE, e.SSO_ENABLED);
  if (!by) return { ...settings, signIn: { mode: "none" } };
  const missing = [
    e.OIDC_ISSUER ? "" : "OIDC_ISSUER (your identity provider)",
    e.OIDC_CLIENT_ID
      ? ""
      : "OIDC_CLIENT_ID (a public client allowed to redirect to <this server>/auth/callback)",
  ].filter(Boolean);
  if (!e.OIDC_ISSUER || !e.OIDC_CLIENT_ID) {
    throw new SwitchboardError(
      "web.config",
      "user",
      `${by}: the web chat signs users in with OpenID Connect; set ${missing.join(" and ")}.`,
    );
  }
  return {
    ...settings,
    signIn: { mode: "oidc", issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, scope: e.OIDC_SCOPE },
  };
}

/**
 * Which setting turns sign-in on (named in errors), if any: Switchboard's AUTH_MODE or CAIPE's
 * SSO_ENABLED. Set both, they must agree: a file saying both "sign in" and "nobody signs in" stops
 * the start rather than leaving the chat open or closed by a guess.
 */
function signInSetting(authMode: "none" | "jwt" | undefined, sso: boolean | undefined): string | undefined {
  if (authMode !== undefined && sso !== undefined && (authMode === "jwt") !== sso) {
    throw new SwitchboardError(
      "web.config",
      "user",
      `AUTH_MODE=${authMode} and SSO_ENABLED=${sso} (CAIPE's) disagree on whether the web chat signs users in: ` +
        `set both to sign in (AUTH_MODE=jwt, SSO_ENABLED=true), both to not (none, false), or leave one unset.`,
    );
  }
  if (authMode === "jwt") return "AUTH_MODE=jwt";
  if (sso) return "SSO_ENABLED=true";
  return undefined;
}
