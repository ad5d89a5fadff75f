// Export for slides and spreadsheets: PNG at 1×/2×/3× of a chosen size, SVG with sub-pixel
// coordinates, an optional caption line (the non-default parameters and the link), CSV of the
// plotted data (the CLI's CSV for the same link) and a copy as TSV; the page's tables copy as TSV.
// The drawing and the numbers come from the wasm Lab; this file only builds the panel and files.

const $ = (id) => document.getElementById(id);

function download(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

function tableTsv(table) {
  return [...table.rows].map((r) => [...r.cells].map((c) => c.textContent.trim()).join("\t")).join("\n") + "\n";
}

async function copy(text, note) {
  try {
    await navigator.clipboard.writeText(text);
    note.textContent = "Copied.";
  } catch {
    note.textContent = "The clipboard is not available here (sandboxed frame or permission).";
  }
}

export function attachExport(page) {
  const panel = document.createElement("div");
  panel.id = "export-panel";
  panel.className = "panel export-panel";
  panel.hidden = true;
  const num = (id, label, value) => {
    const l = document.createElement("label");
    l.className = "inline";
    const i = document.createElement("input");
    i.type = "number"; i.id = id; i.min = "100"; i.max = "4000"; i.step = "1"; i.value = String(value);
    l.append(label, i);
    return [l, i];
  };
  const [wl, w] = num("export-width", "width ", 1000);
  const [hl, h] = num("export-height", "height ", 620);
  const scaleLabel = document.createElement("label");
  scaleLabel.className = "inline";
  const scale = document.createElement("select");
  scale.id = "export-scale";
  for (const k of [1, 2, 3]) { const o = document.createElement("option"); o.value = String(k); o.textContent = `${k}×`; scale.append(o); }
  scaleLabel.append("PNG ", scale);
  const capLabel = document.createElement("label");
  capLabel.className = "inline";
  const cap = document.createElement("input");
  cap.type = "checkbox"; cap.id = "export-caption"; cap.checked = true;
  capLabel.append(cap, " caption with parameters and link");
  const button = (id, text) => { const b = document.createElement("button"); b.type = "button"; b.id = id; b.textContent = text; return b; };
  const png = button("export-png", "PNG");
  const svg = button("export-svg-file", "SVG");
  const csv = button("export-csv", "CSV");
  const tsv = button("copy-tsv", "Copy data (TSV)");
  const tables = button("copy-tables", "Copy tables (TSV)");
  const note = document.createElement("span");
  note.id = "export-note";
  note.setAttribute("role", "status");
  panel.append(wl, hl, scaleLabel, capLabel, png, svg, csv, tsv, tables, note);
  const open = $("export-svg");
  open.textContent = "Export";
  open.setAttribute("aria-expanded", "false");
  open.setAttribute("aria-controls", "export-panel");
  $("embed-panel").after(panel);
  open.addEventListener("click", () => {
    panel.hidden = !panel.hidden;
    open.setAttribute("aria-expanded", String(!panel.hidden));
  });

  const lab = () => page.lab;
  const base = () => `friction-lab-${lab().view()}`;
  const caption = () => {
    if (!cap.checked) return "";
    const q = lab().query().replace(/^v=1&?/, "");
    const params = q.split("&").filter((p) => p && !p.startsWith("view=")).join(", ");
    return `${lab().viewTitle()} — ${params || "paper defaults"} — ${page.fullUrl(false)}`;
  };
  const size = () => [Number(w.value) || 1000, Number(h.value) || 620];
  const fail = (what, e) => { note.textContent = `${what} failed: ${e.message ?? e}`; };

  /** The PNG as a Blob (also used by the e2e test through window.frictionLab.explainExport). */
  const pngBlob = (k = Number(scale.value)) => new Promise((resolve, reject) => {
    const c = document.createElement("canvas");
    const [cw, ch] = size();
    try { lab().drawExport(c, cw, ch, k, caption()); } catch (e) { reject(e); return; }
    c.toBlob((b) => (b ? resolve(b) : reject(new Error("no PNG"))), "image/png");
  });
  const svgText = () => { const [cw, ch] = size(); return lab().exportSvg(cw, ch, caption()); };

  png.addEventListener("click", async () => {
    try { download(await pngBlob(), `${base()}@${scale.value}x.png`); note.textContent = ""; } catch (e) { fail("PNG export", e); }
  });
  svg.addEventListener("click", () => {
    try { download(new Blob([svgText()], { type: "image/svg+xml" }), `${base()}.svg`); note.textContent = ""; } catch (e) { fail("SVG export", e); }
  });
  // while the view worker still computes, the Lab says so instead of giving part of the data
  csv.addEventListener("click", async () => {
    try { download(new Blob([await page.csv()], { type: "text/csv" }), `${base()}.csv`); note.textContent = ""; } catch (e) { fail("CSV export", e); }
  });
  tsv.addEventListener("click", async () => {
    try { copy((await page.csv()).replaceAll(",", "\t"), note); } catch (e) { fail("Copying the data", e); }
  });
  tables.addEventListener("click", () => {
    const t = [$("readout-table"), $("timing-table")].filter((x) => x && !x.hidden && x.rows.length);
    copy(t.map(tableTsv).join("\n"), note);
  });
  page.explainExport = { pngBlob, svgText, csv: () => page.csv(), caption };
  return {};
}
