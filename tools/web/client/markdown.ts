import DOMPurify from "dompurify";
import { marked } from "marked";

// Links in answers open apart from the chat and tell the target nothing about it.
DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A") {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  }
});

/**
 * An answer's markdown (GitHub flavour: tables, fenced code) as HTML that cannot run anything:
 * DOMPurify drops scripts, event handlers and javascript: URLs, and controls an answer could use to
 * pass for the page's own (forms, buttons) or restyle it.
 */
export function renderMarkdown(text: string): string {
  // Agents write plain lines as often as markdown: a single newline stays a line break.
  const html = marked.parse(text, { async: false, gfm: true, breaks: true });
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "dialog"],
    FORBID_ATTR: ["style"],
  });
}
