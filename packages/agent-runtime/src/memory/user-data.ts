import type { User } from "@a2a-js/sdk/server";
import type { Access } from "../authz/access.js";
import { type ConversationStores, deleteUserConversations } from "../conversations/deletion.js";
import type { Memory, MemoryBook } from "./memory-book.js";
import { ownerOfUser } from "./owner.js";

/** What "forget me" erased from one agent. */
export interface ForgottenUser {
  agent: string;
  conversations: number;
  tasks: number;
  memories: number;
  /** The caller's linked tokens removed here (0 or 1: one vendor an agent). */
  linkedTokens: number;
}

/**
 * One agent's data about the calling user, for the user: their memories (listed, erased one by
 * one or all) and "forget me" (every conversation, task, memory and linked token of theirs on this
 * agent; the audit trail stays, under its own retention). The caller is always the verified caller.
 */
export class UserData {
  constructor(
    readonly agent: string,
    private readonly book: MemoryBook | undefined,
    /** Where the user's conversations are: each store deletes its own part of them. */
    private readonly conversations: ConversationStores,
    /** Whose linked tokens are whose, and where unlinking is recorded (as DELETE /linked-tokens). */
    private readonly access?: Access,
  ) {}

  /** Whether this agent keeps memories (LANGGRAPH_STORE_TYPE is not none). */
  get remembers(): boolean {
    return this.book !== undefined;
  }

  listMemories(user: User): Promise<Memory[]> {
    return this.book ? this.book.list(ownerOfUser(user)) : Promise.resolve([]);
  }

  forgetMemory(user: User, id: string): Promise<boolean> {
    return this.book ? this.book.forget(ownerOfUser(user), id) : Promise.resolve(false);
  }

  forgetMemories(user: User): Promise<number> {
    return this.book ? this.book.forgetAll(ownerOfUser(user)) : Promise.resolve(0);
  }

  async forgetUser(user: User): Promise<ForgottenUser> {
    // This agent's state only: each agent is asked itself (the supervisor asks its subagents).
    const { conversations, tasks } = await deleteUserConversations(this.conversations, user);
    const memories = await this.forgetMemories(user);
    return { agent: this.agent, conversations, tasks, memories, linkedTokens: await this.unlink(user) };
  }

  /** The caller's token for this agent's vendor, unlinked and recorded as DELETE /linked-tokens does. */
  private async unlink(user: User): Promise<number> {
    const linked = this.access?.linked;
    if (!linked || !this.access) return 0;
    const principal = this.access.principal(user);
    if (!principal.authenticated || !(await linked.unlink(principal.subject))) return 0;
    await this.access.audit?.outcome(
      { principal, tool: "unlink_token", args: { vendor: linked.vendor.vendor }, policy: [] },
      "done",
    );
    return 1;
  }
}
