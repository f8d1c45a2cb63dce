import { parseEnv, SwitchboardError } from "@switchboard/common";
import { WEB_UI_PORT } from "@switchboard/contract";
import { z } from "zod";

const WebEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(WEB_UI_PORT),
  HOST: z.string().default("0.0.0.0"),
  SWITCHBOARD_URL: z.url({ protocol: /^https?$/ }).default("http://localhost:8000"),
  SLACK_BOT_URL: z.url({ protocol: /^https?$/ }).optional(),
  AUTH_MODE: z.enum(["none", "jwt"]).default("none"),
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
  signIn: SignIn;
}

export function readWebSettings(env: NodeJS.ProcessEnv): WebSettings {
  const e = parseEnv(WebEnv, env, { code: "web.config", what: "web chat settings" });
  const settings = {
    port: e.PORT,
    host: e.HOST,
    supervisorUrl: new URL(e.SWITCHBOARD_URL),
    ...(e.SLACK_BOT_URL ? { slackBotUrl: new URL(e.SLACK_BOT_URL) } : {}),
  };
  if (e.AUTH_MODE === "none") return { ...settings, signIn: { mode: "none" } };
  if (!e.OIDC_ISSUER || !e.OIDC_CLIENT_ID) {
    throw new SwitchboardError(
      "web.config",
      "user",
      "AUTH_MODE=jwt: the web chat signs users in with OpenID Connect; set OIDC_ISSUER (your identity provider) and OIDC_CLIENT_ID (a public client allowed to redirect to <this server>/auth/callback).",
    );
  }
  return {
    ...settings,
    signIn: { mode: "oidc", issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, scope: e.OIDC_SCOPE },
  };
}
