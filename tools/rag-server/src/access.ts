import type { PolicyEngine, Principal } from "@switchboard/agent-runtime";
import type { SourceDefinition } from "@switchboard/knowledge";

/** The resource the policies decide syncs and uploads on: `configure` on `Switchboard::Agent::"rag-server"`. */
export const POLICY_RESOURCE = "rag-server";

/**
 * Who may see a source on the list and who may sync it or upload to it: the one place these rules
 * live. What a user may *read* inside a source is not decided here: the store filters every search
 * and fetch by the documents' own readers, in its SQL.
 */
export class SourceAccess {
  constructor(
    private readonly policies: PolicyEngine | undefined,
    private readonly authMode: "none" | "jwt",
  ) {}

  /**
   * Sync now and upload: a member of one of the source's `admins` groups, or whom the policies let
   * `configure` the RAG server (RBAC_ADMIN_GROUPS' admins, a Cedar rule). With sign-in on and neither
   * naming the user, nobody; without sign-in, the one local user (as configuring agents is).
   */
  mayAdminister(principal: Principal, source: SourceDefinition): boolean {
    if (this.authMode === "none") return true;
    if (!principal.authenticated || principal.subject === "") return false;
    if ((source.admins ?? []).some((group) => principal.groups.includes(group))) return true;
    return this.policies?.decide({ principal, action: "configure", agent: POLICY_RESOURCE }).allowed ?? false;
  }

  /**
   * Whether the source is on the principal's list: they administer it, its definition's readers name
   * them, or it holds a document they may read (`readable`: the store's answer for them). A source
   * they may do none of these with is not shown, nor is its error.
   */
  mayList(principal: Principal, source: SourceDefinition, readable: ReadonlySet<string>): boolean {
    return (
      readable.has(source.id) ||
      readersAdmit(source.readers, principal) ||
      this.mayAdminister(principal, source)
    );
  }
}

/** Whether a definition's `readers` name the principal: everyone, one of its groups, or its subject (signed in only). */
function readersAdmit(readers: SourceDefinition["readers"], principal: Principal): boolean {
  if (readers === undefined) return false;
  if (readers === "everyone") return true;
  if (!principal.authenticated || principal.subject === "") return false;
  return (
    (readers.users ?? []).includes(principal.subject) ||
    (readers.groups ?? []).some((group) => principal.groups.includes(group))
  );
}
