import { createHash, randomBytes } from "node:crypto";
import { open, seal } from "@switchboard/agent-runtime/sealing";
import { isSwitchboardError, type Logger, SwitchboardError } from "@switchboard/common";
import type { Collection, Db } from "mongodb";
import type { ChatPlace } from "../relay/chat-platform.js";
import type { Identities, UserIdentity } from "../relay/identities.js";
import type { OidcClient, SignedInUser } from "./oidc.js";

const SELF = "slack-bot";
const LINK_TTL_MS = 15 * 60 * 1000;
/** An access token this close to expiry is refreshed rather than sent. */
const EXPIRY_MARGIN_MS = 30_000;
export const LINK_PATH = "/slack/link";

/** A one-time link handed to one chat user; its id is the hash of the code in the URL. */
interface LinkRecord {
  _id: string;
  platform: string;
  workspace: string;
  user: string;
  place: ChatPlace;
  /** The PKCE verifier of the sign-in this link starts. */
  verifier: string;
  expiresAt: Date;
}

/** A linked chat user: the subject they act as, and their refresh token, sealed. */
interface IdentityRecord {
  _id: string;
  subject: string;
  name?: string;
  refreshToken: string;
  linkedAt: Date;
}

export interface LinkedIdentitiesOptions {
  db: Db;
  oidc: OidcClient;
  sealingKey: Buffer;
  platform: string;
  /** The web chat's public URL: links and the sign-in's redirect are under it. */
  webUrl: string;
  /** The chat user's email as the platform verified it, when it tells. */
  emailOf: (workspace: string, user: string) => Promise<string | undefined>;
  logger: Logger;
}

/**
 * Chat users linked to the organisation's identity through the web chat's sign-in. An unlinked user
 * gets a one-time link; completing the sign-in behind it stores their refresh token sealed
 * (AES-256-GCM, the record's key as associated data, so it opens for no other user) under
 * platform + workspace + user. A turn then runs with an access token refreshed from it: the user's
 * own principal, never the bot's and never another user's.
 */
export class LinkedIdentities implements Identities {
  private readonly links: Collection<LinkRecord>;
  private readonly identities: Collection<IdentityRecord>;
  /** Access tokens in hand, per linked user: refreshed once they near expiry. */
  private readonly tokens = new Map<string, { token: string; subject: string; expiresAt: number }>();
  private readonly refreshing = new Map<string, Promise<UserIdentity | undefined>>();

  constructor(private readonly options: LinkedIdentitiesOptions) {
    this.links = options.db.collection<LinkRecord>(`links_${SELF}`);
    this.identities = options.db.collection<IdentityRecord>(`identities_${SELF}`);
  }

  async init(): Promise<void> {
    await this.links.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
  }

  get redirectUri(): string {
    return `${this.options.webUrl}${LINK_PATH}/callback`;
  }

  async identify(workspace: string, user: string): Promise<UserIdentity | undefined> {
    const key = this.keyOf(workspace, user);
    const held = this.tokens.get(key);
    if (held && held.expiresAt - EXPIRY_MARGIN_MS > Date.now()) {
      return { kind: "linked", token: held.token, subject: held.subject };
    }
    // One refresh per user at a time: providers rotate refresh tokens and refuse a spent one.
    let pending = this.refreshing.get(key);
    if (!pending) {
      pending = this.refresh(key).finally(() => this.refreshing.delete(key));
      this.refreshing.set(key, pending);
    }
    return pending;
  }

  async linkFor(place: ChatPlace, user: string): Promise<string> {
    const code = randomBytes(24).toString("base64url");
    await this.links.insertOne({
      _id: hash(code),
      platform: this.options.platform,
      workspace: place.workspace,
      user,
      place,
      verifier: randomBytes(32).toString("base64url"),
      expiresAt: new Date(Date.now() + LINK_TTL_MS),
    });
    return `${this.options.webUrl}${LINK_PATH}/${code}`;
  }

  async refused(workspace: string, user: string): Promise<void> {
    this.tokens.delete(this.keyOf(workspace, user));
  }

  /** Where a link sends the browser: the provider's sign-in, or undefined for an unknown or spent link. */
  async startSignIn(code: string): Promise<string | undefined> {
    const link = await this.links.findOne({ _id: hash(code), expiresAt: { $gt: new Date() } });
    if (!link) return undefined;
    const challenge = createHash("sha256").update(link.verifier).digest("base64url");
    return this.options.oidc.authorizeUrl(this.redirectUri, code, challenge);
  }

  /**
   * The sign-in came back: the link is used up, the code exchanged, the ID token verified, and the
   * chat user linked to that subject. Returns who they are now and where they asked.
   */
  async completeSignIn(
    state: string,
    authorizationCode: string,
  ): Promise<{ user: SignedInUser; place: ChatPlace; chatUser: string }> {
    const link = await this.links.findOneAndDelete({ _id: hash(state), expiresAt: { $gt: new Date() } });
    if (!link) {
      throw new SwitchboardError(
        "slack-bot.link",
        "user",
        "This link has expired or was already used. Mention the bot in Slack again to get a new one.",
      );
    }
    const { oidc } = this.options;
    const tokens = await oidc.exchange(authorizationCode, link.verifier, this.redirectUri);
    if (!tokens.id_token || !tokens.refresh_token) {
      throw new SwitchboardError(
        "slack-bot.link",
        "system",
        "The identity provider signed you in but gave no refresh token: allow the client the refresh_token grant and the offline_access scope.",
      );
    }
    const signedIn = await oidc.verifyIdToken(tokens.id_token);
    const chatEmail = await this.options.emailOf(link.workspace, link.user);
    if (chatEmail && signedIn.email && chatEmail.toLowerCase() !== signedIn.email.toLowerCase()) {
      throw new SwitchboardError(
        "slack-bot.link",
        "user",
        "You signed in as someone whose email is not the one on this Slack account, so nothing was linked. Open the link from your own Slack account and sign in as yourself.",
      );
    }
    const key = this.keyOf(link.workspace, link.user);
    await this.identities.replaceOne(
      { _id: key },
      {
        subject: signedIn.subject,
        ...(signedIn.name ? { name: signedIn.name } : {}),
        refreshToken: seal(this.options.sealingKey, tokens.refresh_token, sealContext(key)),
        linkedAt: new Date(),
      },
      { upsert: true },
    );
    this.hold(key, signedIn.subject, tokens.access_token, tokens.expires_in);
    return { user: signedIn, place: link.place, chatUser: link.user };
  }

  private async refresh(key: string): Promise<UserIdentity | undefined> {
    const record = await this.identities.findOne({ _id: key });
    if (!record) return undefined;
    let refreshToken: string;
    try {
      refreshToken = open(this.options.sealingKey, record.refreshToken, sealContext(key));
    } catch (error) {
      this.options.logger.warn(
        { reason: (error as Error).message },
        "a linked user's token cannot be opened; asking them to link again",
      );
      await this.identities.deleteOne({ _id: key });
      return undefined;
    }
    let tokens: Awaited<ReturnType<OidcClient["refresh"]>>;
    try {
      tokens = await this.options.oidc.refresh(refreshToken);
    } catch (error) {
      // A revoked or expired grant: the user links again. Anything else (provider down) is thrown.
      if (isSwitchboardError(error) && error.category === "user") {
        await this.identities.deleteOne({ _id: key, refreshToken: record.refreshToken });
        return undefined;
      }
      throw error;
    }
    if (tokens.refresh_token && tokens.refresh_token !== refreshToken) {
      await this.identities.updateOne(
        { _id: key, refreshToken: record.refreshToken },
        { $set: { refreshToken: seal(this.options.sealingKey, tokens.refresh_token, sealContext(key)) } },
      );
    }
    this.hold(key, record.subject, tokens.access_token, tokens.expires_in);
    return { kind: "linked", token: tokens.access_token, subject: record.subject };
  }

  private hold(key: string, subject: string, token: string, expiresIn: number | undefined): void {
    this.tokens.set(key, { token, subject, expiresAt: Date.now() + (expiresIn ?? 300) * 1000 });
  }

  private keyOf(workspace: string, user: string): string {
    return `${this.options.platform}:${workspace}:${user}`;
  }
}

function hash(code: string): string {
  return createHash("sha256").update(code).digest("hex");
}

function sealContext(key: string): string {
  return `${SELF}:refresh-token:${key}`;
}
