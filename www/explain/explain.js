// Issue 16's page modules in one place: the lesson above the plot, the plot tools under it and
// the export panel. app.js calls attachExplain once and syncView whenever the view may change.

import { attachPlotTools } from "./plot.js";
import { attachLesson, lessonTable } from "./lesson.js";
import { attachExport } from "./export.js";
import { attachPrint } from "./print.js";

function addStylesheet() {
  const have = document.getElementById("explain-css");
  if (have) return have;
  const link = document.createElement("link");
  link.id = "explain-css";
  link.rel = "stylesheet";
  link.href = new URL("./explain.css", import.meta.url).href;
  document.head.append(link);
  return link;
}

/** Resolves when this module can attach in one layout change: once its stylesheet applies (at
 * once where the page carries it inline, as the single file does) and, for a lesson shown open
 * (lesson=1), once its text has arrived. Attached before, the lesson and the tools were laid out
 * unstyled or empty first: the plot changed size two or three times at load, and each change
 * redraws every panel, a task over 50 ms (issue 39). A file that fails to load holds nothing back. */
export function explainReady(page) {
  const el = addStylesheet();
  const sheet = el.tagName !== "LINK" || el.sheet ? null : new Promise((resolve) => {
    el.addEventListener("load", resolve, { once: true });
    el.addEventListener("error", resolve, { once: true });
  });
  const text = page.pageKeys?.lesson === "1" ? lessonTable().catch(() => null) : null;
  return Promise.all([sheet, text]);
}

export function attachExplain(page) {
  addStylesheet();
  // one visible title per view: the selected tab says it; the heading stays for screen readers
  document.getElementById("view-title")?.classList.add("sr-only");
  const parts = [attachLesson(page), attachPlotTools(page), attachExport(page), attachPrint(page)];
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
  const GLOSSED = "th, label, legend, summary";
  const annotate = (root) => {
    const els = [...root.querySelectorAll(GLOSSED)];
    if (root.matches?.(GLOSSED)) els.push(root);
    for (const el of els) {
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
  // Only elements the page added are looked at: the read-out's cells change text at every
  // slider step, and re-scanning the whole page for each took ~0.6 ms a step.
  let added = new Set();
  const observer = new MutationObserver((records) => {
    const first = added.size === 0;
    for (const r of records) for (const n of r.addedNodes) if (n.nodeType === 1) added.add(n);
    if (!first || added.size === 0) return;
    requestAnimationFrame(() => {
      const roots = added;
      added = new Set();
      for (const el of roots) if (el.isConnected) annotate(el);
    });
  });
  observer.observe(document.querySelector("main") ?? document.body, { childList: true, subtree: true });
  annotate(document.body);
}
