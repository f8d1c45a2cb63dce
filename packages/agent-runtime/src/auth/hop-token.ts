import { createPrivateKey, createPublicKey, type KeyObject, randomUUID } from "node:crypto";
import { SwitchboardError } from "@switchboard/common";
import { envPrefixFor } from "@switchboard/contract";
import type { AuthenticatedCaller } from "./caller.js";

/**
 * A hop token: what the supervisor sends a subagent in place of the user's own token. It carries the
 * verified caller's claims, names that one agent as its audience, lives two minutes and is signed
 * with the supervisor's key (AUTH_HOP_SIGNING_KEY), which agents check with its public half
 * (AUTH_SUPERVISOR_PUBLIC_KEY). What one agent receives is refused by every other agent (another
 * audience) and by the supervisor (not its identity provider's signature): a dishonest agent has
 * nothing to replay. See the package README, "Who may do what".
 */
export const HOP_ISSUER = "urn:switchboard:supervisor";
/** The JOSE `typ` of a hop token: an identity provider's token never has it. */
export const HOP_TYPE = "switchboard-hop+jwt";
export const HOP_LIFETIME_SECONDS = 120;
/**
 * The JOSE `typ` of a directory token: the supervisor itself, for no user, reading a host's whole
 * list of configured agents with who each is for (GET <host>/agents). No agent takes it as a
 * caller's credential (auth/bearer.ts refuses it), so it opens nothing but that list.
 */
export const DIRECTORY_TYPE = "switchboard-directory+jwt";

/** The audience a hop token names for an agent: its name as the supervisor's ENABLE_<AGENT> spells it. */
export function hopAudience(agentName: string): string {
  return envPrefixFor(agentName).toLowerCase();
}

/**
 * Claims of the user's token that describe the token rather than the user: never copied into a
 * hop token (its own iss, aud, exp, iat, jti and act are set anew).
 */
const TOKEN_CLAIMS = new Set([
  "iss",
  "aud",
  "exp",
  "iat",
  "nbf",
  "jti",
  "azp",
  "sid",
  "nonce",
  "at_hash",
  "c_hash",
  "auth_time",
  "scope",
  "client_id",
  "cnf",
  "act",
  "may_act",
]);

/** The signing algorithm a key is used with: ES256 (EC P-256) or EdDSA (Ed25519). */
function algorithmOf(key: KeyObject, setting: string): "ES256" | "EdDSA" {
  if (key.asymmetricKeyType === "ed25519") return "EdDSA";
  if (key.asymmetricKeyType === "ec" && key.asymmetricKeyDetails?.namedCurve === "prime256v1") return "ES256";
  throw new SwitchboardError(
    "auth.config",
    "user",
    `${setting} must be an Ed25519 or EC P-256 key (make one with: openssl genpkey -algorithm ed25519).`,
  );
}

function pem(value: string): string {
  // A PEM put into one env line often has its newlines written as \n.
  return value.includes("\\n") ? value.replaceAll("\\n", "\n") : value;
}

/** The supervisor's side: signs a hop token for one agent. */
export class HopTokenIssuer {
  private constructor(
    private readonly key: KeyObject,
    private readonly algorithm: "ES256" | "EdDSA",
    /** The supervisor's own name: it never signs a token for itself. */
    private readonly self: string,
  ) {}

  /** From AUTH_HOP_SIGNING_KEY (a PKCS#8 PEM private key). */
  static fromPem(privateKeyPem: string, self: string): HopTokenIssuer {
    let key: KeyObject;
    try {
      key = createPrivateKey(pem(privateKeyPem));
    } catch {
      throw new SwitchboardError(
        "auth.config",
        "user",
        "AUTH_HOP_SIGNING_KEY is not a PEM private key (make one with: openssl genpkey -algorithm ed25519).",
      );
    }
    return new HopTokenIssuer(key, algorithmOf(key, "AUTH_HOP_SIGNING_KEY"), self);
  }

  /** A token naming `agent` alone, for the verified caller; the caller's email only when verified. */
  async sign(caller: AuthenticatedCaller, agent: string): Promise<string> {
    const audience = hopAudience(agent);
    if (audience === hopAudience(this.self)) throw new Error("the supervisor signs no hop token for itself");
    const claims: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(caller.claims))
      if (!TOKEN_CLAIMS.has(name)) claims[name] = value;
    const { SignJWT } = await import("jose");
    return new SignJWT({ ...claims, act: { sub: this.self } })
      .setProtectedHeader({ alg: this.algorithm, typ: HOP_TYPE })
      .setIssuer(HOP_ISSUER)
      .setSubject(caller.subject)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime(`${HOP_LIFETIME_SECONDS}s`)
      .setJti(randomUUID())
      .sign(this.key);
  }

  /** A directory token for the host `host` alone (its name as its hop audience), the issuer its subject. */
  async signDirectory(host: string): Promise<string> {
    const { SignJWT } = await import("jose");
    return new SignJWT({})
      .setProtectedHeader({ alg: this.algorithm, typ: DIRECTORY_TYPE })
      .setIssuer(HOP_ISSUER)
      .setSubject(this.self)
      .setAudience(hopAudience(host))
      .setIssuedAt()
      .setExpirationTime(`${HOP_LIFETIME_SECONDS}s`)
      .setJti(randomUUID())
      .sign(this.key);
  }
}

/** An agent's side: the supervisor's public key, and the audience that is this agent. */
export interface HopTokenCheck {
  key: KeyObject;
  algorithm: "ES256" | "EdDSA";
  audience: string;
}

/** From AUTH_SUPERVISOR_PUBLIC_KEY (an SPKI PEM public key) and the agent's own name. */
export function hopTokenCheck(publicKeyPem: string, agent: string): HopTokenCheck {
  let key: KeyObject;
  try {
    key = createPublicKey(pem(publicKeyPem));
  } catch {
    throw new SwitchboardError(
      "auth.config",
      "user",
      "AUTH_SUPERVISOR_PUBLIC_KEY is not a PEM public key (the supervisor's: openssl pkey -in <its AUTH_HOP_SIGNING_KEY file> -pubout).",
    );
  }
  return { key, algorithm: algorithmOf(key, "AUTH_SUPERVISOR_PUBLIC_KEY"), audience: hopAudience(agent) };
}

/**
 * Why a directory token is refused by the host `check` is for (undefined when it is the supervisor's,
 * for this host, and fresh): checked as a hop token is, with its own `typ`.
 */
export async function directoryTokenRefusal(
  check: HopTokenCheck,
  token: string,
): Promise<string | undefined> {
  const { jwtVerify } = await import("jose");
  try {
    await jwtVerify(token, check.key, {
      algorithms: [check.algorithm],
      issuer: HOP_ISSUER,
      audience: check.audience,
      typ: DIRECTORY_TYPE,
      requiredClaims: ["exp", "iat", "sub"],
      maxTokenAge: HOP_LIFETIME_SECONDS + 30,
    });
    return undefined;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ERR_JWT_EXPIRED") return "the directory token has expired";
    if (code === "ERR_JWT_CLAIM_VALIDATION_FAILED") return "the directory token is meant for another host";
    return "the directory token is not signed with the supervisor's key (AUTH_SUPERVISOR_PUBLIC_KEY)";
  }
}
