import { createHash, randomBytes } from "node:crypto";
import { open, seal } from "@switchboard/agent-runtime/sealing";
import { isSwitchboardError, type Logger, SwitchboardError } from "@switchboard/common";
import type { Collection, Db } from "mongodb";
import type { ChatPlace } from "../relay/chat-platform.js";
import type { Identities, UserIdentity } from "../relay/identities.js";
import type { OidcClient, SignedInUser } from "./oidc.js";

/**
 * The chat bot a link is for: its name in its collections (`links_<self>`, `identities_<self>`) and
 * sealed tokens, where the web chat offers its link pages, and its platform as users read it.
 */
export interface LinkingBot {
  self: string;
  linkPath: string;
  platform: string;
  /** Where the chat user says "Yes, this is me" after signing in. */
  confirmWhere: string;
  /** What makes the platform tell the bot its users' emails. */
  emailFix: string;
}

export const SLACK_LINKING: LinkingBot = {
  self: "slack-bot",
  linkPath: "/slack/link",
  platform: "Slack",
  confirmWhere: "in the thread where you asked",
  emailFix:
    "Ask your Slack admin to give the Switchboard app the users:read.email scope (and the account an email)",
};

/**
 * How long each step of a link may wait: the link before it is opened, the sign-in before it comes
 * back, the confirmation in the chat before it is pressed. Short: a link forwarded or left in a
 * history is dead by the time anyone else finds it.
 */
export const LINK_TTL_MS = 10 * 60 * 1000;
/** An access token this close to expiry is refreshed rather than sent. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * One step of one chat user's link, keyed by the hash of what the next step presents (the code in
 * the link, the sign-in's `state`, the confirmation's id). Each step deletes its record as it reads
 * it (findOneAndDelete: of two browsers, a replay or two presses, one wins) and writes the next:
 * - `issued`: the link was handed to the chat user in the chat;
 * - `signing-in`: the link was opened; the browser went to the provider with this state and PKCE;
 * - `confirming`: the sign-in came back with verified, equal emails; the chat user has yet to say
 *   in the chat that this is them. Nothing acts as the signed-in user before they do.
 */
interface LinkRecord {
  _id: string;
  stage: "issued" | "signing-in" | "confirming";
  platform: string;
  workspace: string;
  user: string;
  place: ChatPlace;
  expiresAt: Date;
  /** `signing-in`: the PKCE verifier of the sign-in this link started. */
  verifier?: string;
  /** `confirming`: who signed in, and their refresh token, sealed for this chat user. */
  subject?: string;
  name?: string;
  email?: string;
  refreshToken?: string;
}

/** A linked chat user: the subject they act as, and their refresh token, sealed. */
interface IdentityRecord {
  _id: string;
  subject: string;
  name?: string;
  email?: string;
  refreshToken: string;
  linkedAt: Date;
}

/** A sign-in that came back and waits for the chat user to confirm it in the chat. */
export interface PendingLink {
  /** What the chat's confirm button carries. */
  id: string;
  place: ChatPlace;
  chatUser: string;
  user: SignedInUser & { email: string };
}

export interface LinkedIdentitiesOptions {
  db: Db;
  oidc: OidcClient;
  sealingKey: Buffer;
  /** The platform's name in its users' keys (`slack`, `webex`). */
  platform: string;
  bot: LinkingBot;
  /** The web chat's public URL: links and the sign-in's redirect are under it. */
  webUrl: string;
  /**
   * The chat user's email as the platform has it now (asked when the sign-in comes back, not taken
   * from the link); undefined when the platform has none for them or does not tell.
   */
  emailOf: (workspace: string, user: string) => Promise<string | undefined>;
  logger: Logger;
}

/**
 * Chat users linked to the organisation's identity through the web chat's sign-in. An unlinked user
 * gets a one-time link; the sign-in behind it counts only when the ID token carries a verified email
 * equal to the chat account's, and only once the chat user confirms it in the chat (a forwarded link
 * signs nobody else in: see LinkRecord). The refresh token is stored sealed (AES-256-GCM, the
 * record's key as associated data, so it opens for no other user) under platform + workspace + user.
 * A turn then runs with an access token refreshed from it: the user's own principal, never the bot's
 * and never another user's.
 */
export class LinkedIdentities implements Identities {
  private readonly links: Collection<LinkRecord>;
  private readonly identities: Collection<IdentityRecord>;
  /** Access tokens in hand, per linked user and link: refreshed once they near expiry. */
  private readonly tokens = new Map<
    string,
    { token: string; subject: string; linkedAt: number; expiresAt: number }
  >();
  private readonly refreshing = new Map<string, Promise<UserIdentity | undefined>>();

  constructor(private readonly options: LinkedIdentitiesOptions) {
    this.links = options.db.collection<LinkRecord>(`links_${options.bot.self}`);
    this.identities = options.db.collection<IdentityRecord>(`identities_${options.bot.self}`);
  }

  async init(): Promise<void> {
    await Promise.all([
      this.links.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 }),
      this.links.createIndex({ subject: 1 }, { sparse: true }),
      this.identities.createIndex({ subject: 1 }),
    ]);
  }

  get redirectUri(): string {
    return `${this.options.webUrl}${this.options.bot.linkPath}/callback`;
  }

  async identify(workspace: string, user: string): Promise<UserIdentity | undefined> {
    const key = this.keyOf(workspace, user);
    // Read every time: a user forgotten or unlinked on another replica stops acting here at once.
    const record = await this.identities.findOne({ _id: key });
    if (!record) {
      this.tokens.delete(key);
      return undefined;
    }
    const held = this.tokens.get(key);
    if (
      held &&
      held.linkedAt === record.linkedAt.getTime() &&
      held.expiresAt - EXPIRY_MARGIN_MS > Date.now()
    ) {
      return { kind: "linked", token: held.token, subject: held.subject };
    }
    // One refresh per user at a time: providers rotate refresh tokens and refuse a spent one.
    let pending = this.refreshing.get(key);
    if (!pending) {
      pending = this.refresh(key, record).finally(() => this.refreshing.delete(key));
      this.refreshing.set(key, pending);
    }
    return pending;
  }

  async linkFor(place: ChatPlace, user: string): Promise<string> {
    const code = randomBytes(24).toString("base64url");
    await this.links.insertOne({
      _id: hash(code),
      stage: "issued",
      platform: this.options.platform,
      workspace: place.workspace,
      user,
      place,
      expiresAt: new Date(Date.now() + LINK_TTL_MS),
    });
    return `${this.options.webUrl}${this.options.bot.linkPath}/${code}`;
  }

  async refused(workspace: string, user: string): Promise<void> {
    this.tokens.delete(this.keyOf(workspace, user));
  }

  /**
   * Where a link sends the browser: the provider's sign-in, with a fresh `state` and PKCE challenge
   * bound to this link; undefined for an unknown, expired or already opened link (a link opens once).
   */
  async startSignIn(code: string): Promise<string | undefined> {
    const link = await this.take(hash(code), "issued");
    if (!link) return undefined;
    const state = randomBytes(24).toString("base64url");
    const verifier = randomBytes(32).toString("base64url");
    await this.links.insertOne({ ...link, _id: hash(state), stage: "signing-in", verifier });
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    return this.options.oidc.authorizeUrl(this.redirectUri, state, challenge);
  }

  /**
   * The sign-in came back: its state is used up, the code exchanged with that state's verifier, the
   * ID token verified, and its verified email compared with the chat account's email as the platform
   * tells it now. Equal: the sign-in waits for the chat user's confirmation (confirmLink). Anything
   * else stores nothing and says why.
   */
  async completeSignIn(state: string, authorizationCode: string): Promise<PendingLink> {
    const { oidc, bot } = this.options;
    const says = refusals(bot);
    const link = await this.take(hash(state), "signing-in");
    if (!link?.verifier) throw refusal(bot, says.expired);
    const tokens = await oidc.exchange(authorizationCode, link.verifier, this.redirectUri);
    if (!tokens.id_token || !tokens.refresh_token) {
      throw new SwitchboardError(
        `${bot.self}.link`,
        "system",
        "The identity provider signed you in but gave no ID token or refresh token: allow the client the refresh_token grant and the openid and offline_access scopes.",
      );
    }
    const signedIn = await oidc.verifyIdToken(tokens.id_token);
    const chatEmail = normalEmail(await this.options.emailOf(link.workspace, link.user));
    const signedInEmail = normalEmail(signedIn.email);
    const refuse = (reason: string, text: string) => {
      this.options.logger.warn(
        { reason, workspace: link.workspace, chatUser: link.user, subject: signedIn.subject },
        "an account link was refused: nothing was linked",
      );
      return refusal(bot, text);
    };
    if (!signedInEmail || !signedIn.email) throw refuse("no-email", says.noSignedInEmail);
    if (!signedIn.emailVerified) throw refuse("email-not-verified", says.unverified(signedIn.email));
    if (!chatEmail) throw refuse("no-chat-email", says.noChatEmail);
    if (chatEmail !== signedInEmail) throw refuse("emails-differ", says.differ(signedIn.email));
    const id = randomBytes(24).toString("base64url");
    await this.links.insertOne({
      _id: hash(id),
      stage: "confirming",
      platform: link.platform,
      workspace: link.workspace,
      user: link.user,
      place: link.place,
      subject: signedIn.subject,
      ...(signedIn.name ? { name: signedIn.name } : {}),
      email: signedIn.email,
      refreshToken: seal(
        this.options.sealingKey,
        tokens.refresh_token,
        this.sealContext(this.keyOf(link.workspace, link.user)),
      ),
      expiresAt: new Date(Date.now() + LINK_TTL_MS),
    });
    return {
      id,
      place: link.place,
      chatUser: link.user,
      user: { ...signedIn, email: signedIn.email },
    };
  }

  /**
   * The chat user pressed "Yes, this is me" (the platform verified who pressed): the identity is
   * theirs from now on. Only the chat user the link was made for can confirm it, once; anyone else's
   * press, a second press or a late one finds nothing and changes nothing.
   */
  async confirmLink(workspace: string, user: string, id: string): Promise<SignedInUser | undefined> {
    const pending = await this.take(hash(id), "confirming", { workspace, user });
    if (!pending?.subject || !pending.refreshToken) return undefined;
    await this.identities.replaceOne(
      { _id: this.keyOf(workspace, user) },
      {
        subject: pending.subject,
        ...(pending.name ? { name: pending.name } : {}),
        ...(pending.email ? { email: pending.email } : {}),
        refreshToken: pending.refreshToken,
        linkedAt: new Date(),
      },
      { upsert: true },
    );
    return {
      subject: pending.subject,
      ...(pending.name ? { name: pending.name } : {}),
      ...(pending.email ? { email: pending.email } : {}),
      emailVerified: true,
    };
  }

  /** The chat user pressed "No, not me": the sign-in is dropped. True when there was one to drop. */
  async cancelLink(workspace: string, user: string, id: string): Promise<boolean> {
    return (await this.take(hash(id), "confirming", { workspace, user })) !== undefined;
  }

  /**
   * "Forget me": every chat account linked to this subject is unlinked (its sealed refresh token
   * deleted), and every sign-in of theirs still waiting for a confirmation dropped. Returns how many
   * chat accounts were unlinked.
   */
  async forget(subject: string): Promise<number> {
    const linked = await this.identities.find({ subject }, { projection: { _id: 1 } }).toArray();
    const [unlinked] = await Promise.all([
      this.identities.deleteMany({ subject }),
      this.links.deleteMany({ subject }),
    ]);
    for (const { _id } of linked) this.tokens.delete(_id);
    return unlinked.deletedCount;
  }

  /** Reads and deletes one live record of a stage in one step: of two callers, one gets it. */
  private async take(
    id: string,
    stage: LinkRecord["stage"],
    owner?: { workspace: string; user: string },
  ): Promise<LinkRecord | undefined> {
    const record = await this.links.findOneAndDelete({
      _id: id,
      stage,
      platform: this.options.platform,
      ...(owner ?? {}),
      expiresAt: { $gt: new Date() },
    });
    return record ?? undefined;
  }

  private async refresh(key: string, record: IdentityRecord): Promise<UserIdentity | undefined> {
    let refreshToken: string;
    try {
      refreshToken = open(this.options.sealingKey, record.refreshToken, this.sealContext(key));
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
        {
          $set: { refreshToken: seal(this.options.sealingKey, tokens.refresh_token, this.sealContext(key)) },
        },
      );
    }
    this.tokens.set(key, {
      token: tokens.access_token,
      subject: record.subject,
      linkedAt: record.linkedAt.getTime(),
      expiresAt: Date.now() + (tokens.expires_in ?? 300) * 1000,
    });
    return { kind: "linked", token: tokens.access_token, subject: record.subject };
  }

  private keyOf(workspace: string, user: string): string {
    return `${this.options.platform}:${workspace}:${user}`;
  }

  /** A sealed token opens only for the bot and the chat user it was sealed for. */
  private sealContext(key: string): string {
    return `${this.options.bot.self}:refresh-token:${key}`;
  }
}

/** What the link's pages say when a link is refused: why, and what to do, on the bot's platform. */
function refusals({ platform, emailFix }: LinkingBot) {
  return {
    expired: `This link has expired or was already used, so nothing was linked. Mention the bot in ${platform} again to get a new one.`,
    noSignedInEmail: `Your sign-in did not share an email address, so it cannot be tied to your ${platform} account and nothing was linked. Ask your platform team to let the web chat's client release the email claim (the email scope), then mention the bot in ${platform} again for a new link.`,
    unverified: (email: string) =>
      `Your identity provider has not verified the email of this sign-in (${email}), so nothing was linked. Verify it with your identity provider, then mention the bot in ${platform} again for a new link.`,
    noChatEmail: `${platform} did not tell the email of the ${platform} account this link was made for, so nothing was linked. ${emailFix}, then mention the bot again for a new link.`,
    differ: (email: string) =>
      `You signed in as ${email}, but the ${platform} account this link was made for has another email, so nothing was linked. If someone sent you this link, do not use it: a link works only for the ${platform} account it was made for. Otherwise open your own link from ${platform} and sign in as yourself.`,
  };
}

function refusal(bot: LinkingBot, text: string): SwitchboardError {
  return new SwitchboardError(`${bot.self}.link`, "user", text);
}

/** An email as compared: trimmed and lower-cased; undefined when there is none. */
function normalEmail(email: string | undefined): string | undefined {
  return email?.trim().toLowerCase() || undefined;
}

function hash(code: string): string {
  return createHash("sha256").update(code).digest("hex");
}
