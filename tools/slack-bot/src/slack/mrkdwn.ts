import { lexer, type Token, type Tokens } from "marked";

/**
 * The supervisor's markdown as Slack's mrkdwn: `*bold*`, `_italic_`, `~struck~`, `<url|text>` links,
 * headings as bold lines, bullets as `•`, code blocks kept, and tables as aligned text in a code block
 * (mrkdwn has no tables). Parsed by marked, so what counts as markdown is what the web chat renders;
 * `&`, `<` and `>` in text are escaped, so an answer cannot mention @channel or forge a link.
 */
export function toMrkdwn(markdown: string): string {
  return blocks(lexer(markdown)).trim();
}

function blocks(tokens: Token[]): string {
  return tokens
    .map(block)
    .filter((text) => text !== "")
    .join("\n\n");
}

function block(token: Token): string {
  switch (token.type) {
    case "heading":
      return `*${inline((token as Tokens.Heading).tokens)}*`;
    case "paragraph":
      return inline((token as Tokens.Paragraph).tokens);
    case "code":
      return `\`\`\`\n${(token as Tokens.Code).text}\n\`\`\``;
    case "list":
      return list(token as Tokens.List, 0);
    case "blockquote":
      return blocks((token as Tokens.Blockquote).tokens)
        .split("\n")
        .map((line) => `> ${line}`)
        .join("\n");
    case "table":
      return table(token as Tokens.Table);
    case "hr":
      return "───";
    case "space":
      return "";
    case "html":
      return escapeText((token as Tokens.HTML).text.trim());
    default:
      return "tokens" in token && Array.isArray(token.tokens)
        ? inline(token.tokens as Token[])
        : escapeText((token as { text?: string }).text ?? token.raw);
  }
}

function list(token: Tokens.List, depth: number): string {
  const indent = "    ".repeat(depth);
  return token.items
    .map((item, index) => {
      const marker = token.ordered ? `${Number(token.start || 1) + index}.` : "•";
      const parts = item.tokens.map((child) =>
        child.type === "list" ? `\n${list(child as Tokens.List, depth + 1)}` : listItemText(child),
      );
      return `${indent}${marker} ${parts.join("").trim()}`;
    })
    .join("\n");
}

function listItemText(token: Token): string {
  if (token.type === "text" && "tokens" in token && Array.isArray(token.tokens)) return inline(token.tokens);
  return block(token);
}

function table(token: Tokens.Table): string {
  const rows = [
    token.header.map((cell) => cell.text),
    ...token.rows.map((row) => row.map((cell) => cell.text)),
  ];
  const widths =
    rows[0]?.map((_cell, column) => Math.max(...rows.map((row) => (row[column] ?? "").length))) ?? [];
  const line = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd();
  const [header = [], ...body] = rows;
  const rule = widths.map((width) => "-".repeat(width)).join("  ");
  return `\`\`\`\n${[line(header), rule, ...body.map(line)].join("\n")}\n\`\`\``;
}

function inline(tokens: Token[] | undefined): string {
  return (tokens ?? []).map(inlineToken).join("");
}

function inlineToken(token: Token): string {
  switch (token.type) {
    case "strong":
      return `*${inline((token as Tokens.Strong).tokens)}*`;
    case "em":
      return `_${inline((token as Tokens.Em).tokens)}_`;
    case "del":
      return `~${inline((token as Tokens.Del).tokens)}~`;
    case "codespan":
      return `\`${(token as Tokens.Codespan).text}\``;
    case "br":
      return "\n";
    case "link": {
      const link = token as Tokens.Link;
      const label = inline(link.tokens);
      return /^(https?|mailto):/i.test(link.href) ? `<${link.href.replace(/[|>]/g, "")}|${label}>` : label;
    }
    case "image":
      return escapeText((token as Tokens.Image).text);
    case "escape":
    case "text":
      return "tokens" in token && Array.isArray(token.tokens)
        ? inline(token.tokens as Token[])
        : escapeText(decodeEntities((token as Tokens.Text).text));
    case "html":
      return escapeText((token as Tokens.HTML).text);
    default:
      return escapeText(token.raw);
  }
}

/** marked leaves `&amp;` etc. in text as entities; undone before Slack's own escaping. */
function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

/** Slack's three control characters in text: an answer never mentions anyone or links by itself. */
export function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
