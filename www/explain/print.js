// Print and PDF (issue 37): what a printed page shows in place of the live one. A sheet beside
// the page, shown only in print (style.css, @media print): the view's title, the figure drawn
// for paper by the wasm Lab (the export's drawing at 3× scale), the parameter values as a table
// (not sliders), the read-out, the link as text and as a QR code (uqr, from npm). Built when the
// browser is about to print (beforeprint, or the print media query turning on); wiring only:
// every label, value and number comes from the Lab.

const $ = (id) => document.getElementById(id);
/** CSS px of the printed figure's width: about the text width of an A4 or Letter page. */
const PAPER_WIDTH = 720;

let qr = null; // the QR encoder, once loaded
function loadQr() {
  return import("./uqr.js").then((m) => { qr = m; }, (e) => console.warn("no QR code in print:", e));
}

/** A parameter's value as a reader reads it: choices by their label, lists with spaces. */
function valueText(c) {
  if (c.kind === "choice" || c.kind === "multi") {
    const names = new Map(c.options);
    return c.value.split(",").filter((v) => v).map((v) => names.get(v) ?? v).join(", ");
  }
  if (c.kind === "list") return c.value.split(",").join(", ");
  return c.value;
}

function cell(tag, text) {
  const el = document.createElement(tag);
  el.textContent = text;
  return el;
}

function drawQr(canvas, text) {
  if (!qr) { canvas.hidden = true; return; }
  let code;
  try { code = qr.encode(text, { ecc: "M", border: 0 }); } catch { canvas.hidden = true; return; }
  const module = 4;
  const quiet = 4; // the standard's quiet zone, in modules
  const n = code.size + 2 * quiet;
  canvas.width = n * module;
  canvas.height = n * module;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = "#000";
  code.data.forEach((row, y) => row.forEach((on, x) => {
    if (on) ctx.fillRect((x + quiet) * module, (y + quiet) * module, module, module);
  }));
  canvas.hidden = false;
}

export function attachPrint(page) {
  const sheet = document.createElement("section");
  sheet.id = "print-sheet";
  sheet.className = "print-sheet";
  // a copy of what the page shows, for paper only
  sheet.setAttribute("aria-hidden", "true");
  const title = cell("h2", "");
  title.className = "print-title";
  const figure = document.createElement("canvas");
  figure.id = "print-figure";
  const params = document.createElement("table");
  params.id = "print-params";
  params.append(cell("caption", "Parameters"));
  const head = document.createElement("tr");
  head.append(cell("th", "parameter"), cell("th", "value"), cell("th", "unit"));
  params.createTHead().append(head);
  params.createTBody();
  const hidden = cell("p", "The parameter values are hidden in this exercise.");
  hidden.id = "print-hidden";
  const readout = document.createElement("div");
  readout.id = "print-readout";
  const link = document.createElement("div");
  link.className = "print-link";
  const code = document.createElement("canvas");
  code.id = "print-qr";
  const url = cell("p", "");
  url.id = "print-url";
  link.append(code, url);
  sheet.append(title, figure, params, hidden, readout, link);
  document.body.append(sheet);

  const build = () => {
    const lab = page.lab;
    const hide = page.course?.hideValues;
    title.textContent = lab.viewTitle();
    const panels = lab.viewLayout().panels;
    try {
      lab.drawExport(figure, PAPER_WIDTH, panels > 2 ? Math.round(PAPER_WIDTH * 1.1) : Math.round(PAPER_WIDTH * 0.62), 3, "");
      figure.hidden = false;
    } catch (e) {
      figure.hidden = true;
      console.warn("print figure:", e);
    }
    params.hidden = hide;
    hidden.hidden = !hide;
    const body = params.tBodies[0];
    body.replaceChildren();
    if (!hide) {
      for (const c of lab.controls()) {
        if (c.key === "view") continue;
        // the form (5) fields or the rheological ones, as the page shows them
        if ((c.role === "rheo" && page.sigmaMode) || (c.role === "sigma" && !page.sigmaMode)) continue;
        const tr = document.createElement("tr");
        tr.dataset.key = c.key;
        tr.append(cell("th", c.label), cell("td", valueText(c)), cell("td", c.unit));
        body.append(tr);
      }
    }
    // the read-out as the page has it (hidden with the values)
    const table = $("readout-table");
    readout.replaceChildren();
    if (!hide && table && table.tBodies[0]?.rows.length) readout.append(table.cloneNode(true));
    readout.querySelectorAll("[id]").forEach((el) => el.removeAttribute("id"));
    // the link would carry the values: an exercise prints none
    link.hidden = hide;
    if (!hide) {
      const full = page.fullUrl(false);
      url.replaceChildren("Open this figure: ", cell("span", full));
      if (qr) drawQr(code, full);
      else loadQr().then(() => drawQr(code, full)); // printed at once: the code follows
    }
  };
  addEventListener("beforeprint", build);
  const printing = matchMedia("print");
  printing.addEventListener("change", (e) => { if (e.matches) build(); });
  // this module attaches once its stylesheet has loaded: a print begun before that is built now
  if (printing.matches) build();
  // ready before anyone prints, without delaying the page's start
  (window.requestIdleCallback ?? setTimeout)(() => loadQr());
  page.printSheet = { build };
  return {};
}
