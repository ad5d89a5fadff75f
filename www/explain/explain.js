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
  const api = { syncView: () => { for (const p of parts) p.sync?.(); } };
  api.syncView();
  return api;
}
