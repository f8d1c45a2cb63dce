import type { ReportModel } from "./rows.js";

/** Everything from a model, a fleet or a set is text: escaped, never markup. */
const esc = (text: string) =>
  text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");

/** Only http(s) links: a trace URL template is configuration, but a case id is not. */
const safeUrl = (url: string) => (/^https?:\/\//i.test(url) ? esc(url) : undefined);

export function renderHtml(model: ReportModel): string {
  const names = model.configs.map((c) => c.name);
  const summary = model.configs
    .map(
      (c) =>
        `<tr><th scope="row">${esc(c.name)}</th>${c.cells.map((v) => `<td>${esc(v)}</td>`).join("")}</tr>`,
    )
    .join("\n");
  const rows = model.cases
    .map((row) => {
      const rates = row.cells
        .map((c) =>
          c
            ? `<td class="${c.pass ? "pass" : "fail"}">${c.pass ? "✅" : "❌"} ${esc(c.rate)}</td>`
            : "<td>—</td>",
        )
        .join("");
      const notes = row.cells
        .flatMap((c, i) =>
          c?.notes.length ? [`<div><b>${esc(names[i] ?? "")}</b>: ${c.notes.map(esc).join("; ")}</div>`] : [],
        )
        .join("");
      const traces = row.cells
        .flatMap((c, i) =>
          (c?.traces ?? []).map((t, run) => {
            const href = t.url ? safeUrl(t.url) : undefined;
            const label = `${esc(names[i] ?? "")} ${run + 1}`;
            return href
              ? `<a href="${href}">${label}</a>`
              : `<span title="${esc(t.id)}">${label}: <code>${esc(t.id.slice(0, 8))}</code></span>`;
          }),
        )
        .join(" ");
      const verdicts = row.cells
        .flatMap((c, i) =>
          (c?.verdicts ?? []).map(
            (v) =>
              `<li>${esc(names[i] ?? "")}: ${v.pass ? "✅" : "❌"} ${esc(v.criterion)} — <i>${esc(v.reason)}</i></li>`,
          ),
        )
        .join("");
      return `<tr><th scope="row" title="${esc(row.origin)}">${esc(row.key)}<div class="req">${esc(row.request)}</div></th>${rates}<td>${notes || "—"}${verdicts ? `<ul>${verdicts}</ul>` : ""}</td><td>${traces}</td></tr>`;
    })
    .join("\n");
  const gate = model.gate
    ? `<p class="${model.gate.pass ? "pass" : "fail"}"><b>Gate: ${model.gate.pass ? "passed" : "failed"}.</b> ${esc(model.gate.reason)}</p>`
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(model.title)}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>body{font:14px system-ui,sans-serif;margin:2rem}table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}.pass{color:#05662c}.fail{color:#a40e26}.req{font-weight:normal;color:#555;max-width:28rem}ul{margin:.3rem 0;padding-left:1.2rem}</style>
</head><body>
<h1>${esc(model.title)}</h1>
<table><thead><tr>${model.summaryHeader.map((h) => `<th scope="col">${esc(h)}</th>`).join("")}</tr></thead><tbody>
${summary}
</tbody></table>
${gate}
<h2>Cases</h2>
<table><thead><tr><th scope="col">case</th>${names.map((n) => `<th scope="col">${esc(n)}</th>`).join("")}<th scope="col">what failed, the judge's reasons</th><th scope="col">traces</th></tr></thead><tbody>
${rows}
</tbody></table>
</body></html>
`;
}
