// Issue 16: axes that hold still and tick labels that differ, integer controls, a lesson per
// view, class presets that round-trip through their links, fair overlays in the explorer, and
// export (PNG at 2×, SVG with sub-pixel coordinates, CSV equal to the CLI's).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { existsSync } from "node:fs";
import { startServer, launch, openPage, screenshot, countColour, inkedPixels, withPixels } from "./harness.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CLI = path.join(ROOT, "target/release/friction-lab");

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launch();
});
after(async () => { await browser?.close(); await server?.close(); });

async function ready(page) {
  await page.waitForFunction(() => document.documentElement.dataset.ready === "1" && document.documentElement.dataset.done === "1", null, { timeout: 120_000 });
}
/** Waits until the current job is done and its final picture drawn. */
async function settled(page) {
  await page.waitForFunction(() => document.documentElement.dataset.done === "1" && !window.frictionLab.lab.needsFrame(), null, { timeout: 120_000 });
}
const cli = (...args) => {
  assert.ok(existsSync(CLI), `${CLI} is built (scripts/test.sh builds it for the corpus)`);
  return execFileSync(CLI, args, { encoding: "utf8", maxBuffer: 1 << 28 });
};

test("y tick labels are distinct and one keyboard step on v_S keeps the axes unless data leave them", async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?vs=0.03`);
  await ready(page);
  for (const vs of ["0.001", "0.03", "0.1", "8.11"]) {
    await page.evaluate((v) => window.frictionLab.change("vs", v, true), vs);
    await settled(page);
    // a new value is a change inside the view: fit once to look at it on its own axes
    await page.click("#fit-axes");
    await settled(page);
    const ticks = await page.evaluate(() => window.frictionLab.lab.ticks());
    const y = ticks[0].y;
    assert.ok(y.length >= 3, `vs=${vs}: ${y}`);
    assert.equal(new Set(y).size, y.length, `vs=${vs}: y tick labels repeat: ${y.join(" | ")} (${ticks[0].y_note})`);
    if (vs === "8.11") {
      assert.ok(ticks[0].y_note, "a tiny spread gets an offset/scale note");
      await screenshot(page, "explain-vs-8.11-ticks.png");
    }
    const before = await page.evaluate(() => window.frictionLab.lab.axes());
    await page.focus("#c-vs-r");
    await page.keyboard.press("ArrowRight");
    await settled(page);
    const after = await page.evaluate(() => window.frictionLab.lab.axes());
    const data = await page.evaluate(() => window.frictionLab.lab.dataBounds());
    const inside = data[0] >= before[0] && data[1] <= before[1] && data[2] >= before[2] && data[3] <= before[3];
    if (inside) assert.deepEqual(after, before, `vs=${vs}: the axes moved although the data stayed inside`);
    else assert.ok(data[2] >= after[2] && data[3] <= after[3], `vs=${vs}: the data left the axes and they refit around it`);
  }
  // jargon in the read-out has a plain-words tooltip
  await page.waitForFunction(() => [...document.querySelectorAll("#readout-table th")].some((t) => t.dataset.glossed));
  const tip = await page.$$eval("#readout-table th", (ths) => ths.find((t) => /passivity residual/.test(t.textContent))?.title);
  assert.match(tip ?? "", /energy/);
  // the lock holds the axes even when the data leave them
  await page.click("#lock-axes");
  const locked = await page.evaluate(() => window.frictionLab.lab.axes());
  await page.evaluate(() => window.frictionLab.change("vs", "0.01", true));
  await settled(page);
  assert.deepEqual(await page.evaluate(() => window.frictionLab.lab.axes()), locked);
  // wheel zoom narrows the axes; a double-click fits them again
  const box = await page.locator("#plot-box").boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -300);
  await settled(page);
  const zoomed = await page.evaluate(() => window.frictionLab.lab.axes());
  assert.ok(zoomed[1] - zoomed[0] < locked[1] - locked[0], "zoomed in on x");
  await page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
  await settled(page);
  const fitted = await page.evaluate(() => window.frictionLab.lab.axes());
  const data = await page.evaluate(() => window.frictionLab.lab.dataBounds());
  assert.ok(fitted[2] <= data[2] && fitted[3] >= data[3] && fitted[3] - fitted[2] < 2 * (data[3] - data[2]), `fit: ${fitted} around ${data}`);
  // hover read-out of the nearest point, with units
  await page.click("#lock-axes");
  // a pixel of a stroked curve, in CSS px of the plot
  const at = await withPixels(page, "#loops", ({ data: d, width, height }) => {
    const r = width / document.getElementById("loops").clientWidth;
    for (let y = 0; y < height; y += 3) for (let x = Math.floor(width / 3); x < width; x += 3) {
      if (d[(y * width + x) * 4 + 3] > 200) return [x / r, y / r];
    }
    return null;
  });
  assert.ok(at, "a curve pixel");
  await page.mouse.move(box.x + at[0], box.y + at[1]);
  await page.waitForFunction(() => document.getElementById("plot-readout").textContent);
  assert.match(await page.textContent("#plot-readout"), /^\S.*: v = -?[\d.e-]+ m\/s, F = -?[\d.e-]+ N$/);
  // a spread below 1e-9 of the values (v_S = 0.001: F = 1 + 7e-12 N at the loops' slowest
  // point) is not zoomed into: the axis shows a constant, centred, with room around it
  await page.evaluate(() => window.frictionLab.change("vs", "0.001", true));
  await settled(page);
  await page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
  await settled(page);
  const flat = await page.evaluate(() => window.frictionLab.lab.axes());
  const fdata = await page.evaluate(() => window.frictionLab.lab.dataBounds());
  assert.ok(fdata[3] - fdata[2] < 1e-9 * Math.abs(fdata[3]), `a round-off spread: ${fdata}`);
  assert.ok(flat[2] <= fdata[2] && flat[3] >= fdata[3] && flat[3] - flat[2] > 0.5 * Math.abs(fdata[3]), `flat: ${flat} around ${fdata}`);
  assert.deepEqual(problems, []);
});

test("the n slider gives only integers over the enforced range, by keyboard and pointer", async () => {
  const { page, problems } = await openPage(browser.context, server.url);
  await ready(page);
  const range = page.locator("#c-n-r");
  assert.equal(await range.getAttribute("max"), "10", "one position per n = 0..10");
  assert.equal(await page.getAttribute("#c-n-n", "step"), "1");
  let seed = 7;
  const rand = () => { seed = (seed * 16807) % 2147483647; return seed / 2147483647; };
  const keys = ["ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End"];
  for (let i = 0; i < 30; i++) {
    const box = await range.boundingBox();
    if (rand() < 0.5) {
      await range.focus();
      await page.keyboard.press(keys[Math.floor(rand() * keys.length)]);
    } else {
      await page.mouse.click(box.x + 4 + rand() * (box.width - 8), box.y + box.height / 2);
    }
    const v = await page.inputValue("#c-n-n");
    assert.match(v, /^(10|[0-9])$/, `move ${i}: n = ${v}`);
    assert.equal(await page.textContent("#err-n"), "", `move ${i}: an error message`);
    // the slider may rebuild (n is structural): wait for the page to settle on it
    await page.waitForFunction(() => !window.frictionLab.pending.size);
  }
  // a fraction typed into the box is refused with the link's message
  await page.fill("#c-n-n", "2.5");
  await page.press("#c-n-n", "Enter");
  await page.waitForFunction(() => document.getElementById("err-n")?.textContent);
  const msg = await page.textContent("#err-n");
  const link = await page.evaluate(() => window.wasmBindings.checkQuery("n=2.5").errors[0].message);
  assert.equal(msg, link);
  assert.match(msg, /integer 0 ≤ n ≤ 10/);
  assert.deepEqual(problems, []);
});

test("each view shows its lesson with a named source; embed hides it unless lesson=1", async () => {
  const { page, problems } = await openPage(browser.context, server.url);
  await ready(page);
  // the views the core runs (the fit workspace, which runs outside them, has no lesson)
  const views = await page.evaluate(() => window.frictionLab.lab.controls().find((c) => c.key === "view").options
    .map((o) => o[0]).filter((v) => !window.wasmBindings.viewRunsOutside(v)));
  assert.equal(views.length, 10);
  for (const v of views) {
    await page.evaluate((v) => window.frictionLab.change("view", v, true), v);
    await page.waitForFunction((v) => window.frictionLab.lab.view() === v && !window.frictionLab.pending.size, v);
    await page.waitForFunction(() => document.querySelector("#lesson .reference"));
    assert.ok(await page.isVisible("#lesson"), v);
    const ref = await page.textContent("#lesson .reference");
    assert.match(ref, /Romano|Novais|Djidda Mahamat|jchristopherson/, `${v}: ${ref}`);
    assert.ok(await page.locator("#lesson math").count() === 1, `${v}: one equation`);
    const paras = await page.locator("#lesson p:not(.reference):not(.hint)").count();
    assert.ok(paras >= 2 && paras <= 4, `${v}: ${paras} paragraphs`);
    if (v === "stickslip" || v === "robot") {
      assert.equal(await page.locator("#lesson svg.schematic").count(), 1, `${v} schematic`);
      if (!(await page.evaluate(() => document.getElementById("lesson").open))) await page.click("#lesson summary");
      await settled(page);
      await screenshot(page, `explain-lesson-${v}.png`);
    }
  }
  const embed = await openPage(browser.context, `${server.url}?view=stickslip&embed=1`);
  await ready(embed.page);
  assert.equal(await embed.page.isVisible("#lesson"), false, "embed=1 hides the lesson");
  const forced = await openPage(browser.context, `${server.url}?view=stickslip&embed=1&lesson=1`);
  await ready(forced.page);
  // the lessons are fetched (www/explain/lessons.json), so they may arrive after the first loops
  await forced.page.waitForSelector("#lesson svg.schematic", { timeout: 10_000 }).catch(() => {});
  assert.ok(await forced.page.isVisible("#lesson svg.schematic"), "lesson=1 shows it in embed mode");
  assert.match(forced.page.url(), /lesson=1/);
  assert.deepEqual([...problems, ...embed.problems, ...forced.problems], []);
});

test("every preset loads, draws and round-trips through its link; --presets lists them", async () => {
  const lines = cli("--presets").trim().split("\n").map((l) => l.split("\t"));
  assert.ok(lines.length >= 20);
  const { page, problems } = await openPage(browser.context, server.url);
  await ready(page);
  for (const [view, id, name, link] of lines) {
    // from the view's defaults, the button sets exactly the listed link
    await page.goto(`${server.url}?view=${view}`);
    await ready(page);
    const button = page.locator(`#presets button[data-preset="${id}"]`);
    assert.equal(await button.getAttribute("aria-label"), name);
    await button.click();
    await page.waitForFunction(() => !window.frictionLab.pending.size);
    assert.equal(await page.evaluate(() => window.frictionLab.lab.query()), link, `${view}/${id}`);
    // the link loads the same state and draws
    await page.goto(`${server.url}?${link}`);
    await ready(page);
    assert.equal(await page.evaluate(() => window.frictionLab.lab.query()), link);
    const drawn = await inkedPixels(page, "#loops");
    assert.ok(drawn > 200, `${view}/${id}: ${drawn} curve pixels`);
  }
  assert.deepEqual(problems, []);
});

test("every view opens on its example: the page's ?view=X computes what friction-lab 'view=X' prints", async () => {
  const { page, problems } = await openPage(browser.context, server.url);
  await ready(page);
  const views = ["curve", "explorer", "stickslip", "presliding", "breakaway", "prescribed", "sweep"];
  for (const view of views) {
    await page.goto(`${server.url}?view=${view}`);
    await ready(page);
    assert.equal(await page.evaluate(() => window.frictionLab.lab.query()), `v=1&view=${view}`);
    if (view === "stickslip") {
      // event-driven 40 s runs take a few more or fewer steps in the browser's arithmetic:
      // compare the readout (breakaway time and force, period) with the CLI's metrics
      const rows = await page.$$eval("#readout-table tbody tr", (r) => r.map((tr) => [...tr.children].map((c) => c.textContent)));
      const metrics = cli(`view=${view}`, "--metrics").trim().split("\n").slice(1).map((l) => l.split(","));
      const models = [...new Set(metrics.map((m) => m[0]))];
      assert.deepEqual(models, ["lugre", "coulomb"]);
      assert.equal(rows.length, models.length);
      models.forEach((id, i) => {
        const m = (k) => Number(metrics.find((r) => r[0] === id && r[1] === k)[2]);
        for (const [col, key] of [[1, "breakaway_time"], [2, "breakaway_force"], [5, "period"]]) {
          const [x, y] = [Number(rows[i][col]), m(key)];
          assert.ok(Math.abs(x - y) <= 1e-3 * Math.abs(y), `${view} ${id} ${key}: ${x} vs ${y}`);
        }
      });
      continue;
    }
    if (view === "presliding") {
      // likewise for the force-driven block: x max, x min and du/dx against the CLI's metrics
      const rows = await page.$$eval("#readout-table tbody tr", (r) => r.map((tr) => [...tr.children].map((c) => c.textContent)));
      const [head, ...metrics] = cli(`view=${view}`, "--metrics").trim().split("\n").map((l) => l.split(","));
      assert.deepEqual(metrics.map((m) => m[0]), ["lugre", "dahl"]);
      assert.equal(rows.length, 2);
      metrics.forEach((m, i) => {
        for (const [col, key] of [[1, "stiffness_N_per_m"], [2, "x_max_m"], [3, "x_min_m"]]) {
          const [x, y] = [Number(rows[i][col]), Number(m[head.indexOf(key)])];
          assert.ok(Math.abs(x - y) <= 1e-3 * Math.abs(y), `${view} ${m[0]} ${key}: ${x} vs ${y}`);
        }
      });
      continue;
    }
    const csv = await page.evaluate(() => window.frictionLab.csv());
    const want = cli(`view=${view}`);
    const parse = (t) => t.trim().split("\n").map((l) => l.split(","));
    const a = parse(csv), b = parse(want);
    assert.deepEqual(a[0], b[0], `${view}: header`);
    assert.equal(a.length, b.length, `${view}: rows`);
    // breakaway: model, rate and F_b (the time and place of a flat peak move with the steps)
    const cols = view === "breakaway" ? 3 : a[0].length;
    for (let i = 1; i < a.length; i++) {
      for (let j = 0; j < cols; j++) {
        const [x, y] = [Number(a[i][j]), Number(b[i][j])];
        // the same models: the model column matches exactly, the numbers to 1e-4
        if (Number.isNaN(x) || Number.isNaN(y)) assert.equal(a[i][j], b[i][j], `${view} row ${i}`);
        else assert.ok(Math.abs(x - y) <= 1e-4 * Math.max(Math.abs(x), Math.abs(y)) + 1e-12, `${view} row ${i} col ${j}: ${x} vs ${y}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

test("explorer with Stribeck, LuGre, Dahl, Karnopp: same F_N, comparable ranges, coinciding curves told apart", async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?view=explorer&model=stribeck,lugre,dahl,karnopp`);
  await ready(page);
  const rows = await page.$$eval("#readout-table tbody tr", (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  const spans = rows.map((r) => Number(r[2]) - Number(r[1]));
  const [lo, hi] = [Math.min(...spans), Math.max(...spans)];
  assert.ok(hi / lo < 1.5, `force ranges ${spans}`);
  assert.equal(await page.inputValue("#c-fn-n"), "9.81", "one shared normal force");
  const legend = await page.evaluate(() => window.frictionLab.lab.readout().summary);
  assert.ok(legend.length > 0);
  // Karnopp lies on Dahl: its legend entry says so and it is dashed
  const svg = await page.evaluate(() => window.frictionLab.lab.exportSvg(900, 560, ""));
  assert.match(svg, /coincides with Dahl/);
  const dahl = await countColour(page, "#loops", [0x00, 0x9e, 0x73], 30);
  const karnopp = await countColour(page, "#loops", [0xcc, 0x79, 0xa7], 30);
  assert.ok(dahl > 50 && karnopp > 50, `both visible: Dahl ${dahl} px, Karnopp ${karnopp} px`);
  // the phenomena matrix states its criterion under each column heading
  await page.click("#phenomena-panel summary");
  await page.waitForSelector("#phenomena-table tr.criteria");
  const criteria = await page.$$eval("#phenomena-table tr.criteria td", (tds) => tds.map((t) => t.textContent));
  assert.match(criteria.join(" | "), /re-sticks/);
  // parameters grouped by model
  // (the first group is a fieldset, the others collapsible <details>: issue 15's layout)
  const groups = await page.$$eval("fieldset.group legend, details.group summary", (ls) => ls.map((l) => l.textContent));
  assert.ok(groups.includes("shared by the models") && groups.includes("LuGre") && groups.includes("Karnopp"), groups.join(" | "));
  await screenshot(page, "explain-explorer-4-models.png");
  assert.deepEqual(problems, []);
});

test("export: PNG 2× at the chosen size with the loop colours, SVG with sub-pixel coordinates, CSV = the CLI's", async () => {
  const { page, problems } = await openPage(browser.context, server.url);
  await ready(page);
  await page.click("#export-svg");
  assert.ok(await page.isVisible("#export-panel"));
  await page.fill("#export-width", "800");
  await page.fill("#export-height", "500");
  await page.selectOption("#export-scale", "2");
  const png = await page.evaluate(async () => {
    const blob = await window.frictionLab.explainExport.pngBlob(2);
    const bmp = await createImageBitmap(blob);
    const c = document.createElement("canvas");
    c.width = bmp.width; c.height = bmp.height;
    const ctx = c.getContext("2d");
    ctx.drawImage(bmp, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    const count = (rgb) => { let n = 0; for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - rgb[0]) < 30 && Math.abs(d[i + 1] - rgb[1]) < 30 && Math.abs(d[i + 2] - rgb[2]) < 30) n++; return n; };
    const bytes = new Uint8Array(await blob.arrayBuffer());
    return { w: bmp.width, h: bmp.height, blue: count([0, 114, 178]), red: count([213, 94, 0]), green: count([0, 158, 115]), sig: [...bytes.slice(1, 4)].map((b) => String.fromCharCode(b)).join(""), url: URL.createObjectURL(blob) };
  });
  assert.equal(png.sig, "PNG");
  assert.deepEqual([png.w, png.h], [1600, 1000]);
  assert.ok(png.blue > 300 && png.red > 300 && png.green > 300, `loop colours: ${png.blue} ${png.red} ${png.green}`);
  // look at it
  const shot = await browser.context.newPage();
  await shot.setViewportSize({ width: 800, height: 500 });
  const dataUrl = await page.evaluate(async () => {
    const b = await window.frictionLab.explainExport.pngBlob(1);
    return new Promise((r) => { const f = new FileReader(); f.onload = () => r(f.result); f.readAsDataURL(b); });
  });
  await shot.setContent(`<img src="${dataUrl}" style="display:block">`);
  await screenshot(shot, "explain-export-png.png");
  await shot.close();
  const svg = await page.evaluate(() => window.frictionLab.explainExport.svgText());
  const pts = svg.match(/points="([^"]*)"/g).join(" ");
  assert.match(pts, /\d\.\d/, "sub-pixel coordinates");
  assert.match(svg, /paper defaults|vs=/, "caption with the parameters");
  // CSV: the same columns and numbers as the CLI for the same link
  const [csv, query] = await page.evaluate(async () => [await window.frictionLab.explainExport.csv(), window.frictionLab.lab.query()]);
  const want = cli(query);
  const parse = (t) => t.trim().split("\n").map((l) => l.split(","));
  const a = parse(csv), b = parse(want);
  assert.deepEqual(a[0], b[0], "header");
  assert.equal(a.length, b.length, "rows");
  for (let i = 1; i < a.length; i++) {
    for (let j = 0; j < a[i].length; j++) {
      const x = Number(a[i][j]), y = Number(b[i][j]);
      assert.ok(Math.abs(x - y) <= 1e-12 * Math.max(Math.abs(x), Math.abs(y), 1e-300) || x === y, `row ${i} col ${j}: ${x} vs ${y}`);
    }
  }
  await screenshot(page, "explain-default-view.png");
  assert.deepEqual(problems, []);
});

test("the plot changes size at most once at load, when the lesson and the plot tools arrive; an open lesson does not squeeze it", async () => {
  // Each size the plot takes is a re-size of both canvases and a redraw of every panel; before,
  // the lesson and the tools were laid out unstyled, then styled, and the lesson's line appeared
  // later still (two to four sizes after the first).
  const WATCH = () => {
    window.__plotSizes = [];
    addEventListener("DOMContentLoaded", () => {
      new ResizeObserver((es) => {
        for (const e of es) window.__plotSizes.push(Math.round(e.contentRect.height));
      }).observe(document.getElementById("plot-box"));
    });
  };
  for (const q of ["view=prescribed&model=lugre,dahl,gms,elasto-plastic", "view=stickslip&lesson=1"]) {
    const { page, problems } = await openPage(browser.context, `${server.url}?${q}`, { initScript: WATCH });
    await ready(page);
    // the lessons have arrived and the tools are in place
    await page.waitForFunction(() => document.querySelector("#lesson .reference") && document.getElementById("plot-tools"));
    await page.waitForTimeout(300);
    const sizes = await page.evaluate(() => window.__plotSizes);
    const distinct = sizes.filter((h, i) => i === 0 || h !== sizes[i - 1]);
    assert.ok(distinct.length >= 1 && distinct.length <= 2, `${q}: plot heights in turn ${sizes.join(", ")}`);
    assert.ok(distinct.at(-1) >= 120, `${q}: the plot keeps room (${distinct.at(-1)} px)`);
    if (q.includes("lesson=1")) {
      // an open lesson moves the plot down rather than squeezing it (before: 232 px open
      // against 666 px closed here, six panels squeezed)
      const open = distinct.at(-1);
      await page.click("#lesson summary");
      await page.waitForFunction(() => !document.getElementById("lesson").open);
      await page.waitForTimeout(200);
      const closed = await page.evaluate(() => document.getElementById("plot-box").getBoundingClientRect().height);
      assert.ok(open >= 0.9 * closed, `${q}: plot ${open} px with the lesson open, ${Math.round(closed)} px closed`);
    }
    assert.deepEqual(problems, []);
    await page.close();
  }
});
