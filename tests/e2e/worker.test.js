// The view worker (www/view-worker.js, issue 39): a heavy view's job computes off the main
// thread, so the page's input and drawing go on while it runs; a slider moved during a job
// leaves the picture of its last position, the same as that link loaded afresh; the page keeps
// the last picture and says it is computing meanwhile; a page that cannot start a worker (a
// frame with an opaque origin) computes every job itself. The plot is drawn by the painter (a
// second view-worker.js holding the plot's canvases); its picture is the page's own.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launch, openPage, openOpaqueFrame, screenshot, inkedPixels, pixelHash } from "./harness.js";

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launch();
});
after(async () => { await browser?.close(); await server?.close(); });

const HEAVY = "view=stickslip&model=lugre,dahl,gms,elasto-plastic";
const done = (page) => page.waitForFunction(() => document.documentElement.dataset.done === "1", null, { timeout: 60_000 });
// the readout's numbers of the physics (its last columns are this browser's run times)
const readout = (page) => page.$eval("#readout-table", (t) => {
  const heads = [...t.querySelectorAll("thead th")].map((h) => h.textContent);
  const keep = heads.map((h) => !/wall time/i.test(h));
  return [...t.querySelectorAll("tbody tr")].map((r) => [...r.cells].filter((_, i) => keep[i]).map((c) => c.textContent));
});
/** The page's link once its throttled URL write has caught up with its state. */
const link = async (page) => {
  await page.waitForFunction(() => {
    const bare = (q) => q.replace(/^\??(v=1&)?/, "");
    return bare(location.search) === bare(window.frictionLab.lab.query());
  }, null, { timeout: 10_000 });
  return page.url();
};
const inked = (page) => inkedPixels(page, "#loops");

test("a heavy job computes in the view worker while the main thread is busy", async () => {
  // ten times the default run (about 0.13 s natively, 30+ frames of 8 ms on the page alone), so
  // that a handful of frames after the hold can only mean the worker computed it meanwhile
  const { page, problems } = await openPage(browser.context, `${server.url}?${HEAVY}&tend=400`);
  await done(page);
  assert.equal(await page.evaluate(() => Boolean(window.frictionLab.worker)), true, "the page runs a view worker");
  const before = await readout(page);
  // a change, then the main thread held for 3 s in one task: on the page alone the job would
  // get 8 ms a frame after it; with the worker it is computed meanwhile, and the frames after
  // the hold only draw it
  const frames = await page.evaluate(async () => {
    const input = document.getElementById("c-kspring-r");
    input.value = String(Number(input.value) * 1.5);
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const until = performance.now() + 3000;
    while (performance.now() < until) { /* the main thread busy, as on a slow phone */ }
    let n = 0;
    while (document.documentElement.dataset.done !== "1" && n < 1000) {
      await new Promise((r) => requestAnimationFrame(r));
      n++;
    }
    return n;
  });
  // the frames after the hold: the snapshot's, the painter's answer, the readout's two tasks
  assert.ok(frames <= 10, `done ${frames} frames after the main thread came back`);
  const after = await readout(page);
  assert.notDeepEqual(after, before, "the readout is of the new spring");
  // the same numbers as the link of that state loaded in a page of its own
  const fresh = await openPage(browser.context, await link(page));
  await done(fresh.page);
  assert.deepEqual(await readout(fresh.page), after);
  // the data export: the worker's CSV of its job, the same as the fresh page computed itself
  const [csv, freshCsv] = await Promise.all([page, fresh.page].map((p) => p.evaluate(() => window.frictionLab.csv())));
  assert.equal(await page.evaluate(() => window.frictionLab.lab.workerJob() !== undefined), true, "the plot is the worker's");
  assert.ok(csv.split("\n").length > 1000, "a CSV of the runs");
  assert.equal(csv, freshCsv);
  assert.deepEqual([...problems, ...fresh.problems], []);
  await fresh.page.close();
  await page.close();
});

test("a slider dragged through a heavy job leaves the picture of where it stopped, and the last picture meanwhile", async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?${HEAVY}`);
  await done(page);
  const drawn = await inked(page);
  assert.ok(drawn > 1000, `the first picture is drawn (${drawn} px)`);
  await page.focus("#c-mus-r");
  let computingInk = null;
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("ArrowRight");
    // while a job computes, the picture on screen is never blank
    const st = await page.evaluate(() => document.documentElement.dataset.done);
    if (st === "0") computingInk = Math.min(computingInk ?? Infinity, await inked(page));
  }
  if (computingInk !== null) assert.ok(computingInk > 1000, `a picture stays while computing (${computingInk} px)`);
  await done(page);
  await screenshot(page, "worker-dragged.png");
  const after = await readout(page);
  const fresh = await openPage(browser.context, await link(page));
  await done(fresh.page);
  assert.deepEqual(await readout(fresh.page), after, "the picture of the slider's last position");
  assert.deepEqual([...problems, ...fresh.problems], []);
  await fresh.page.close();
  await page.close();
});

test("the phenomena matrix computes its rows in the view worker", async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?view=stickslip`);
  await done(page);
  await page.evaluate(() => { const d = document.getElementById("phenomena-panel"); d.open = true; d.dispatchEvent(new Event("toggle")); });
  await page.waitForFunction(() => /models\./.test(document.getElementById("phenomena-status")?.textContent ?? ""), null, { timeout: 180_000 });
  const rows = await page.$$eval("#phenomena-table tbody tr", (rs) => rs.map((r) => [r.dataset.model, r.cells.length]));
  const models = await page.evaluate(() => window.wasmBindings.modelList().length);
  assert.equal(rows.length, models);
  // the same row as the page's own module computes on the main thread
  const lugre = await page.$eval('#phenomena-table tr[data-model="lugre"]', (r) => [...r.cells].slice(1).map((c) => c.textContent));
  const direct = await page.evaluate(() => window.wasmBindings.phenomenaRow("lugre").flags);
  assert.deepEqual(lugre.slice(0, direct.length), direct.map((f) => (f === "1" ? "✓ 1" : f)));
  assert.deepEqual(problems, []);
  await page.close();
});

test("a frame that cannot start a worker computes every job on the page", async () => {
  // an opaque origin (sandbox without allow-same-origin) on a server that answers cross-origin
  // requests: the page loads, starts no worker and draws the heavy link itself
  const { page, problems, frame, close } = await openOpaqueFrame(browser.context, HEAVY, { width: 900 });
  try {
    await frame.waitForFunction(() => document.documentElement.dataset.done === "1", null, { timeout: 60_000 });
    assert.equal(await frame.evaluate(() => origin), "null");
    assert.equal(await frame.evaluate(() => window.frictionLab.worker), null, "no worker in an opaque origin");
    assert.equal(await frame.$$eval("#readout-table tbody tr", (rs) => rs.length), 4, "four models' runs");
    assert.deepEqual(problems, []);
    await page.close();
  } finally {
    await close();
  }
});

test("the painter draws the plot the page would draw itself; a painter that fails leaves the page drawing", async () => {
  const q = `${server.url}?view=hysteresis&freqs=25,100`;
  const { page, problems } = await openPage(browser.context, q);
  // the same link on a page without OffscreenCanvas transfer: it draws on its own canvases
  const { page: alone, problems: aloneProblems } = await openPage(browser.context, q, {
    initScript: () => { delete HTMLCanvasElement.prototype.transferControlToOffscreen; },
  });
  await Promise.all([done(page), done(alone)]);
  assert.equal(await page.evaluate(() => Boolean(window.frictionLab.painter)), true, "the page has a painter");
  assert.equal(await alone.evaluate(() => window.frictionLab.painter), null, "no painter without transfer");
  assert.equal(
    await page.evaluate(() => { try { document.getElementById("plot").getContext("2d"); return "drawn here"; } catch { return "the painter's"; } }),
    "the painter's", "the canvases belong to the painter");
  assert.ok(await inked(page) > 500, "the painter's curves are on screen");
  // the same pixels, once both pages have settled (the lesson module's late layout may resize
  // a plot after data-done, and its redraw follows)
  const hashes = async () => [await pixelHash(page, "#plot"), await pixelHash(alone, "#plot"), await pixelHash(page, "#loops"), await pixelHash(alone, "#loops")];
  let h = await hashes();
  for (let i = 0; i < 50 && (h[0] !== h[1] || h[2] !== h[3]); i++) {
    await page.waitForTimeout(100);
    h = await hashes();
  }
  assert.equal(h[0], h[1], "#plot: the same pixels as drawn on the page");
  assert.equal(h[2], h[3], "#loops: the same pixels as drawn on the page");
  // the plot's tools read where the painter's panels went: the same tick labels and hover text
  const tools = (p) => p.evaluate(() => JSON.stringify([window.frictionLab.lab.ticks(), window.frictionLab.lab.nearest(300, 200, 400)]));
  assert.equal(await tools(page), await tools(alone));

  // a painter that fails (here: a drawing that does not read) hands the plot back to the page
  const warnings = [];
  page.on("console", (m) => { if (m.type() === "warning") warnings.push(m.text()); });
  await page.evaluate(() => {
    const p = window.frictionLab.painter;
    p.w.postMessage({ op: "paint", epoch: p.epoch, n: 1e9, nums: new Float64Array([1, 2]), texts: ["x"] });
  });
  await page.waitForFunction(() => window.frictionLab.painter === null, null, { timeout: 10_000 });
  assert.ok(warnings.some((w) => /painter failed; drawing on the page/.test(w)), warnings.join("\n"));
  const before = await page.evaluate(() => window.frictionLab.lab.get("vs"));
  await page.evaluate(() => {
    const input = document.getElementById("c-vs-r");
    input.value = String(Number(input.value) * 1.2);
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });
  await page.waitForFunction((v) => window.frictionLab.lab.get("vs") !== v && document.documentElement.dataset.done === "1", before, { timeout: 30_000 });
  assert.equal(await page.evaluate(() => document.getElementById("plot").getContext("2d") !== null), true, "fresh canvases of the page's own");
  assert.ok(await inked(page) > 500, "the page draws the new picture");
  assert.deepEqual(problems, []);
  assert.deepEqual(aloneProblems, []);
  await alone.close();
  await page.close();
});

test("at load the painter computes the link first and the page computes after it; a painter that never says so delays nothing for long", async () => {
  // what the page hears from its workers, and when it first computes (performance.now() of both)
  const watch = (dropWarmed) => {
    window.__heard = [];
    window.__frames = [];
    const W = window.Worker;
    window.Worker = class extends W {
      set onmessage(f) {
        super.onmessage = (e) => {
          if (e.data?.op === "warmed") {
            window.__heard.push(["warmed", performance.now()]);
            if (dropWarmed) return;
          }
          f(e);
        };
      }
    };
    let lab = null;
    Object.defineProperty(window, "frictionLab", {
      configurable: true, get: () => lab,
      set: (v) => {
        lab = v;
        queueMicrotask(() => {
          const frame = v.lab.frame;
          v.lab.frame = function (...a) { window.__frames.push(performance.now()); return frame.apply(this, a); };
        });
      },
    });
  };
  const q = `${server.url}?view=stickslip&model=lugre,dahl,gms`;
  const { page, problems } = await openPage(browser.context, q, { initScript: `(${watch})(false)` });
  await done(page);
  const { heard, frames } = await page.evaluate(() => ({ heard: window.__heard, frames: window.__frames }));
  assert.equal(heard.length, 1, "the painter says once that it has computed the link");
  assert.ok(frames.length > 0 && frames[0] > heard[0][1], `the page's first computing (${frames[0]}) after the painter's (${heard[0][1]})`);
  assert.ok(await inked(page) > 500, "the picture is drawn");

  // a painter that never says it (its message dropped): the page computes after its wait
  const silent = await openPage(browser.context, q, { initScript: `(${watch})(true)` });
  await done(silent.page);
  assert.ok(await inked(silent.page) > 500, "the picture is drawn without the painter's word");
  assert.equal(await silent.page.evaluate(() => window.frictionLab.warming), false);
  assert.deepEqual([...problems, ...silent.problems], []);
  await silent.page.close();
  await page.close();
});
