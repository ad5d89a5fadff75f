// Issue 16's page modules in one place: the lesson above the plot, the plot tools under it and
// the export panel. app.js calls attachExplain once and syncView whenever the view may change.

import { attachPlotTools } from "./plot.js";
import { attachLesson } from "./lesson.js";
import { attachExport } from "./export.js";

function addStylesheet() {
  if (document.getElementById("explain-css")) return;
  const link = document.createElement("link");
  link.id = "explain-css";
  link.rel = "stylesheet";
  link.href = new URL("./explain.css", import.meta.url).href;
  document.head.append(link);
}

export function attachExplain(page) {
  addStylesheet();
  // one visible title per view: the selected tab says it; the heading stays for screen readers
  document.getElementById("view-title")?.classList.add("sr-only");
  const parts = [attachLesson(page), attachPlotTools(page), attachExport(page)];
  attachGlossary(page);
  const api = { syncView: () => { for (const p of parts) p.sync?.(); } };
  api.syncView();
  return api;
}

/** Tooltips in plain words on jargon (the core's glossary) in labels and table headings, and the
 * phenomena matrix's criterion under each of its column headings. Re-applied when the page
 * rebuilds those elements. */
export function attachGlossary(page) {
  const terms = page.b.glossary();
  const annotate = (root) => {
    for (const el of root.querySelectorAll("th, label, legend, summary")) {
      if (el.dataset.glossed) continue;
      const text = el.textContent.toLowerCase();
      const hits = terms.filter(([t]) => text.includes(t.toLowerCase()));
      if (!hits.length) continue;
      el.dataset.glossed = "1";
      const words = hits.map(([t, m]) => `${t}: ${m}`).join("\n");
      el.title = el.title ? `${el.title}\n${words}` : words;
      el.classList.add("glossed");
    }
    const head = document.querySelector("#phenomena-table thead");
    if (head && head.rows.length === 1) {
      const criteria = page.b.phenomenaCriteria();
      const row = document.createElement("tr");
      row.className = "criteria";
      const first = document.createElement("th");
      first.scope = "row";
      first.textContent = "criterion";
      row.append(first);
      for (const c of criteria) { const td = document.createElement("td"); td.textContent = c; row.append(td); }
      row.append(document.createElement("td"));
      head.append(row);
    }
  };
  let queued = false;
  const observer = new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; annotate(document.body); });
  });
  observer.observe(document.querySelector("main") ?? document.body, { childList: true, subtree: true });
  annotate(document.body);
}
