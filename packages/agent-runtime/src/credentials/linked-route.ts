import { isSwitchboardError } from "@switchboard/common";
import type { Request, Response } from "express";
import { callerOf } from "../auth/bearer.js";
import type { Access } from "../authz/access.js";
import type { LinkableVendor, LinkedTokenSummary, LinkedTokens } from "./linked-tokens.js";

/** What GET /linked-tokens answers: the caller's links on this agent, or why there are none to make. */
export type LinkedTokensAnswer =
  | { agent: string; enabled: true; vendor: LinkableVendor; linked: LinkedTokenSummary[] }
  | { agent: string; enabled: false; reason: string; vendor?: LinkableVendor };

/**
 * GET /linked-tokens, PUT /linked-tokens/:vendor ({"token": "…"}) and DELETE /linked-tokens/:vendor
 * on an agent, behind the bearer guard: a signed-in user links, lists (vendor and when, never the
 * token) and unlinks their own token for the agent's vendor. Linking and unlinking are audited (the
 * vendor only). The supervisor serves its own, gathering its subagents'.
 */
export class LinkedTokenRoutes {
  constructor(
    private readonly agent: string,
    private readonly access: Access,
    /** Why linking is off here, when it is (the store is then absent). */
    private readonly off: { reason: string; vendor?: LinkableVendor } | undefined,
  ) {}

  private get tokens(): LinkedTokens | undefined {
    return this.access.linked;
  }

  list = async (req: Request, res: Response) => {
    const answer: LinkedTokensAnswer = this.tokens
      ? { agent: this.agent, enabled: true, vendor: this.tokens.vendor, linked: await this.listFor(req) }
      : { agent: this.agent, enabled: false, reason: this.off?.reason ?? "", ...vendorOf(this.off) };
    res.json(answer);
  };

  link = async (req: Request, res: Response) => {
    const target = await this.target(req, res);
    if (!target) return;
    try {
      const linked = await target.tokens.link(
        target.subject,
        (req.body as { token?: unknown } | undefined)?.token as string,
      );
      await this.record(req, "link_token", target.tokens.vendor.vendor);
      res.json({ agent: this.agent, linked });
    } catch (error) {
      if (!isSwitchboardError(error) || error.category !== "user") throw error;
      res.status(400).json({ agent: this.agent, error: error.message });
    }
  };

  unlink = async (req: Request, res: Response) => {
    const target = await this.target(req, res);
    if (!target) return;
    const unlinked = await target.tokens.unlink(target.subject);
    if (unlinked) await this.record(req, "unlink_token", target.tokens.vendor.vendor);
    res.json({ agent: this.agent, vendor: target.tokens.vendor.vendor, unlinked });
  };

  private async listFor(req: Request): Promise<LinkedTokenSummary[]> {
    const principal = this.access.principal(await callerOf(req));
    return principal.authenticated && this.tokens ? this.tokens.list(principal.subject) : [];
  }

  /** The store and the caller's subject, or the refusal already answered. */
  private async target(
    req: Request,
    res: Response,
  ): Promise<{ tokens: LinkedTokens; subject: string } | undefined> {
    const tokens = this.tokens;
    if (!tokens) {
      res.status(409).json({ agent: this.agent, error: this.off?.reason ?? "Linking is off on this agent." });
      return undefined;
    }
    const vendor = String(req.params.vendor);
    if (vendor !== tokens.vendor.vendor) {
      res.status(404).json({
        agent: this.agent,
        error: `The ${this.agent} agent takes ${tokens.vendor.title} tokens only: use /linked-tokens/${tokens.vendor.vendor}.`,
      });
      return undefined;
    }
    const principal = this.access.principal(await callerOf(req));
    if (!principal.authenticated) {
      res.status(403).json({
        agent: this.agent,
        error:
          "Linking a token needs a signed-in user (AUTH_MODE=jwt): an anonymous caller's token would serve everyone.",
      });
      return undefined;
    }
    return { tokens, subject: principal.subject };
  }

  private async record(req: Request, tool: "link_token" | "unlink_token", vendor: string): Promise<void> {
    const principal = this.access.principal(await callerOf(req));
    await this.access.audit?.outcome({ principal, tool, args: { vendor }, policy: [] }, "done");
  }
}

function vendorOf(off: { vendor?: LinkableVendor } | undefined): { vendor?: LinkableVendor } {
  return off?.vendor ? { vendor: off.vendor } : {};
}
