// The course kit (issue 37): the single file friction-lab.html opened from disk with no server,
// LMS auto-height (lti.frameResize), the Embed panel's snippets, link cards, locked exercises
// (lock=, hide=values), theme=, legibility under the TeachBooks inversion filter, and print.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { DIST, ARTIFACTS, startServer, launch, openPage, screenshot, distinctColours, countColour } from "./harness.js";

const SINGLE = path.join(DIST, "friction-lab.html");
const PALETTE = [[0x00, 0x72, 0xb2], [0xd5, 0x5e, 0x00], [0x00, 0x9e, 0x73]]; // friction_plot::PALETTE

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launch({ viewport: { width: 1366, height: 768 } });
});
after(async () => { await browser?.close(); await server?.close(); });

const ready = (page) => page.waitForFunction(() => document.documentElement.dataset.ready === "1" && document.documentElement.dataset.done === "1", null, { timeout: 30_000 });
const done = (page) => page.waitForFunction(() => document.documentElement.dataset.done === "1" && !window.frictionLab.pending.size, null, { timeout: 60_000 });

/** Opens a file:// URL and records every request other than the document itself (data: and
 * blob: URLs are the page's own bytes), every failed request, page error and console error. */
async function openFile(context, url) {
  const page = await context.newPage();
  const problems = [];
  const doc = url.split("?")[0];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => { if (m.type() === "error") problems.push(`console.error: ${m.text()}`); });
  page.on("requestfailed", (r) => problems.push(`failed request: ${r.url()}`));
  page.on("request", (r) => {
    const u = r.url();
    if (u.startsWith("data:") || u.startsWith("blob:") || u.split("?")[0] === doc) return;
    problems.push(`request: ${u}`);
  });
  await page.goto(url);
  return { page, problems };
}

/** WCAG contrast ratio of two sRGB colours (0–255). */
function contrast(a, b) {
  const lum = ([r, g, bl]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(bl);
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

test("the single file from file://, no server: every view draws, the lessons open, the example fit finishes, PNG and CSV export; nothing is requested", async () => {
  const { page, problems } = await openFile(browser.context, pathToFileURL(SINGLE).href);
  await ready(page);
  await screenshot(page, "single-file.png");
  // the views' jobs run in its view worker, made from the file's own code (a blob URL)
  assert.equal(await page.evaluate(() => Boolean(window.frictionLab.worker)), true, "the single file's view worker runs");
  // every view the page offers, through its menu, each drawn
  // (ten views, and the fit workspace, which is tried at the end)
  const options = await page.$$eval("#view-select option", (os) => os.map((o) => o.value));
  assert.equal(options.length, 11);
  assert.ok(options.includes("fit"), "the fit workspace is in the menu");
  const views = options.filter((v) => v !== "fit");
  for (const view of views) {
    await page.evaluate((v) => { const s = document.getElementById("view-select"); s.value = v; s.dispatchEvent(new Event("change")); }, view);
    await page.waitForFunction((v) => window.frictionLab.lab.view() === v, view);
    await done(page);
    assert.ok(await distinctColours(page, "#loops") > 3 || await distinctColours(page, "#plot") > 3, `${view} drawn`);
    assert.equal(await page.$eval("#status", (s) => s.hidden || s.className !== "error"), true, `${view}: no error`);
  }
  // the lesson of the view shown opens, with its text
  await page.click("#lesson summary");
  assert.ok((await page.textContent("#lesson")).length > 200, "the lesson's text");
  assert.equal(await page.isVisible("#lesson p"), true);
  // back to the default view; PNG and CSV export from the export panel
  await page.evaluate(() => { const s = document.getElementById("view-select"); s.value = "hysteresis"; s.dispatchEvent(new Event("change")); });
  await page.waitForFunction(() => window.frictionLab.lab.view() === "hysteresis");
  await done(page);
  await page.click("#export-svg");
  const [png] = await Promise.all([page.waitForEvent("download"), page.click("#export-png")]);
  const bytes = await readFile(await png.path());
  assert.deepEqual([...bytes.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(""), "PNG");
  assert.ok(bytes.length > 20_000, `a drawn PNG (${bytes.length} B)`);
  const [csv] = await Promise.all([page.waitForEvent("download"), page.click("#export-csv")]);
  const text = await readFile(await csv.path(), "utf8");
  assert.match(text.split("\n")[0], /^freq,t,v,F/);
  assert.ok(text.split("\n").length > 100);
  // the example fit runs in a worker made from the file's own bytes
  await page.evaluate(() => { const s = document.getElementById("view-select"); s.value = "fit"; s.dispatchEvent(new Event("change")); });
  await page.waitForSelector("#fit-workspace:not([hidden])");
  await page.waitForFunction(() => document.querySelectorAll("#fit-model option").length > 40, null, { timeout: 30_000 });
  await page.click("#fit-example");
  await page.waitForFunction(() => !document.getElementById("fit-run").disabled, null, { timeout: 30_000 });
  for (const box of await page.$$("#fit-params .fit-free:not([disabled])")) await box.uncheck();
  for (const key of ["muk", "mus"]) await page.check(`#fit-params tr[data-key="${key}"] .fit-free`);
  await page.click("#fit-run");
  await page.waitForSelector("#fit-result:not([hidden])", { timeout: 120_000 });
  const rows = await page.$$eval("#fit-table tbody tr", (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows.map((r) => r[0]).sort(), ["μ_k", "μ_s"]);
  assert.ok(rows.every((r) => Number.isFinite(Number(r[1]))), JSON.stringify(rows));
  await page.locator("#fit-result").scrollIntoViewIfNeeded();
  await screenshot(page, "single-file-fit.png");
  assert.deepEqual(problems, []);
  await page.close();
});

test("the single file takes a link's query string, from disk and from a server", async () => {
  const { page, problems } = await openFile(browser.context, `${pathToFileURL(SINGLE).href}?view=stickslip&model=lugre`);
  await ready(page);
  assert.equal(await page.evaluate(() => window.frictionLab.lab.query()), "v=1&view=stickslip&model=lugre");
  assert.equal(await page.inputValue("#c-model"), "lugre");
  assert.equal(await page.inputValue("#c-model-1"), "", "LuGre alone, not the example's pair");
  assert.ok(await countColour(page, "#loops", PALETTE[0], 40) > 100, "LuGre's run drawn");
  await screenshot(page, "single-file-stickslip.png");
  // a slider move writes the link into the file's own address
  await page.fill("#c-vb-n", "0.2");
  await page.press("#c-vb-n", "Enter");
  await page.waitForFunction(() => /vb=0\.2/.test(location.search));
  assert.match(page.url(), /^file:\/\/.*friction-lab\.html\?v=1&view=stickslip&model=lugre&vb=0\.2$/);
  assert.deepEqual(problems, []);
  await page.close();
  // over http, beside index.html, with the page's link to it
  const http = await openPage(browser.context, `${server.url}friction-lab.html?v=1&view=relaxation&embed=1`);
  await ready(http.page);
  assert.equal(await http.page.evaluate(() => window.frictionLab.lab.view()), "relaxation");
  assert.equal(await http.page.evaluate(() => performance.getEntriesByType("resource").length), 0, "nothing fetched");
  assert.deepEqual(http.problems, []);
  await http.page.close();
});

test("the Embed panel offers 16:9 and 2:1 snippets with title, allowfullscreen and a full-screen link, and one for the single file", async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?v=1&vs=0.02`);
  await ready(page);
  await page.click("#embed-button");
  await page.selectOption("#embed-size", "16:9");
  const wide = await page.inputValue("#embed-code");
  assert.match(wide, /^<iframe src="[^"]+\?v=1&amp;vs=0\.02&amp;embed=1" title="Friction Lab: [^"]+" width="800" height="450" style="border:0;width:100%;height:auto;aspect-ratio:16\/9"[^>]* allowfullscreen><\/iframe>/);
  assert.match(wide, /\n<p><a href="http:\/\/127\.0\.0\.1:\d+\/\?v=1&amp;vs=0\.02" target="_blank" rel="noopener">Run full screen<\/a><\/p>$/);
  await page.selectOption("#embed-size", "2:1");
  assert.match(await page.inputValue("#embed-code"), /height="400" style="[^"]*aspect-ratio:2\/1"/);
  // the exercise choices go into the snippet
  await page.check("#embed-lock");
  await page.check("#embed-hide");
  await page.selectOption("#embed-theme", "dark");
  assert.match(await page.inputValue("#embed-code"), /embed=1&amp;lock=1&amp;hide=values&amp;theme=dark"/);
  const single = await page.inputValue("#embed-single");
  assert.match(single, /^<iframe src="friction-lab\.html\?v=1&amp;vs=0\.02&amp;embed=1&amp;lock=1&amp;hide=values&amp;theme=dark" title=/);
  assert.match(single, /<a href="friction-lab\.html\?v=1&amp;vs=0\.02&amp;lock=1&amp;hide=values&amp;theme=dark"/);
  // the download link names the file beside the page, which is there
  assert.equal(await page.getAttribute("#single-file-link", "href"), "friction-lab.html");
  const res = await page.request.get(`${server.url}friction-lab.html`);
  assert.equal(res.status(), 200);
  // the preview frame takes the ratio
  await page.click("#embed-preview-button");
  const box = await (await page.waitForSelector("#embed-preview iframe")).boundingBox();
  assert.ok(Math.abs(box.width / box.height - 2) < 0.05, `2:1 preview ${box.width}×${box.height}`);
  await screenshot(page, "embed-panel-course.png");
  assert.deepEqual(problems, []);
  await page.close();
});

test("link cards: Open Graph and Twitter tags, the CLI's preview PNG and an oEmbed file", async () => {
  const html = await readFile(path.join(DIST, "index.html"), "utf8");
  const meta = (attr, name) => new RegExp(`<meta ${attr}="${name}" content="([^"]+)">`).exec(html)?.[1];
  assert.ok(meta("property", "og:title"));
  assert.ok(meta("property", "og:description"));
  assert.equal(meta("name", "twitter:card"), "summary_large_image");
  const image = meta("property", "og:image");
  assert.match(image, /preview\.png$/);
  const png = await readFile(path.join(DIST, "preview.png"));
  assert.equal(png.readUInt32BE(16), 1800, "the CLI's --png of the default figure");
  const link = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(html)?.[1];
  assert.match(link, /oembed\.json$/);
  const oembed = JSON.parse(await readFile(path.join(DIST, "oembed.json"), "utf8"));
  assert.equal(oembed.type, "rich");
  assert.equal(oembed.version, "1.0");
  assert.match(oembed.html, /^<iframe src="[^"]*\?v=1&amp;embed=1" title="Friction Lab"/);
  assert.deepEqual([oembed.width, oembed.height, oembed.thumbnail_width], [800, 500, 1800]);
});

/** A host page on its own origin whose script resizes the frame on `lti.frameResize` as
 * Canvas does, and records every message it receives. */
function lmsHost(src, width) {
  return {
    "/lms.html": {
      type: "text/html; charset=utf-8",
      body: `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0;font:16px sans-serif">
        <h1 style="margin:8px">Week 3: friction</h1><p style="margin:8px">Estimate the Stribeck velocity from the loops below.</p>
        <iframe id="lab" src="${src}" title="Friction Lab" width="${width}" height="150" style="border:1px solid #999;display:block" sandbox="allow-scripts allow-same-origin allow-popups" allowfullscreen></iframe>
        <p style="margin:8px">Text after the frame.</p>
        <script>window.msgs = []; addEventListener("message", (e) => {
          window.msgs.push(e.data);
          if (e.data && e.data.subject === "lti.frameResize") document.getElementById("lab").style.height = e.data.height + "px";
        });</script></body></html>`,
    },
  };
}

test("an LMS host on another origin gets lti.frameResize with the resize height and the frame then fits its content; other origins hear nothing", async () => {
  const pages = {}, others = {};
  const host = await startServer({ root: "/nonexistent", extra: pages });
  const other = await startServer({ root: "/nonexistent", extra: others });
  const src = `${server.url}?v=1&embed=1&origin=${encodeURIComponent(host.origin)}`;
  Object.assign(pages, lmsHost(src, 720));
  Object.assign(others, lmsHost(src, 720));
  try {
    const { page, problems } = await openPage(browser.context, `${host.origin}/lms.html`, { allowedOrigins: [host.origin, server.origin] });
    const frame = await (await page.waitForSelector("#lab")).contentFrame();
    await ready(frame);
    await page.waitForFunction(() => window.msgs.some((m) => m && m.subject === "lti.frameResize"));
    const [lti, resize] = await page.evaluate(() => [window.msgs.filter((m) => m && m.subject === "lti.frameResize").at(-1), window.msgs.filter((m) => m && m.type === "resize").at(-1)]);
    assert.equal(lti.height, resize.height, "the same height as the page's own resize event");
    assert.ok(lti.height > 300 && lti.height < 900, `a figure's height for 720 px (${lti.height})`);
    await page.waitForFunction((h) => Math.round(document.getElementById("lab").getBoundingClientRect().height) === h + 2, lti.height);
    // the frame at that height: plot, strip and link all inside it, nothing scrolls
    const fit = await frame.evaluate(() => {
      const de = document.documentElement;
      const stage = document.getElementById("stage");
      const bottom = Math.max(...["controls", "open-full"].map((id) => document.getElementById(id).getBoundingClientRect().bottom));
      return { over: de.scrollHeight - de.clientHeight, stage: stage.scrollHeight - stage.clientHeight, bottom, h: innerHeight, plot: document.getElementById("plot-box").getBoundingClientRect().height, w: de.clientWidth };
    });
    assert.ok(fit.over <= 0 && fit.stage <= 1, `no scrolling inside the frame ${JSON.stringify(fit)}`);
    assert.ok(fit.bottom <= fit.h + 0.5, `the strip and the link are inside the frame ${JSON.stringify(fit)}`);
    assert.ok(Math.abs(fit.plot - 0.62 * fit.w) < 4, `the plot gets the height asked for it ${JSON.stringify(fit)}`);
    await screenshot(page, "lms-auto-height.png");
    assert.deepEqual(problems, []);
    // the same frame under a host outside origin=: no lti.frameResize, no events at all
    const { page: op } = await openPage(browser.context, `${other.origin}/lms.html`, { allowedOrigins: [other.origin, server.origin] });
    const of = await (await op.waitForSelector("#lab")).contentFrame();
    await ready(of);
    await of.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.equal(await op.evaluate(() => window.msgs.length), 0);
    assert.equal(await op.evaluate(() => document.getElementById("lab").getBoundingClientRect().height), 152, "left at its own height");
  } finally {
    await host.close();
    await other.close();
  }
});

test("lock=1: no control changes by mouse, touch or keyboard, values stay visible; lock=vs,k0 locks those only", async () => {
  const touch = await launch({ viewport: { width: 1366, height: 768 }, hasTouch: true });
  try {
    const { page, problems } = await openPage(touch.context, `${server.url}?v=1&vs=0.02&lock=1`);
    await ready(page);
    const q = await page.evaluate(() => window.frictionLab.lab.query());
    assert.equal(q, "v=1&vs=0.02");
    const enabled = await page.$$eval("#controls input, #controls select, #controls button, #tabs button, #presets button, #view-select, #reset-defaults", (els) => els.filter((e) => !e.disabled).map((e) => e.id || e.outerHTML.slice(0, 60)));
    assert.deepEqual(enabled, [], "every control disabled");
    assert.equal(await page.inputValue("#c-vs-n"), "0.02", "the value is shown");
    assert.equal(await page.isVisible("#c-vs-n"), true);
    assert.match(await page.textContent("#lock-note"), /locked/);
    const slider = await page.$("#c-vs-r");
    const box = await slider.boundingBox();
    // mouse: a click and a drag along the track
    await page.mouse.click(box.x + box.width * 0.9, box.y + box.height / 2);
    await page.mouse.move(box.x + 5, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width - 5, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    // touch: a tap on the track and on a view tab
    await page.touchscreen.tap(box.x + box.width * 0.1, box.y + box.height / 2);
    const tab = await (await page.$("#tab-relaxation")).boundingBox();
    await page.touchscreen.tap(tab.x + tab.width / 2, tab.y + tab.height / 2);
    // keyboard: focus cannot land on a control; keys pressed wherever it is change nothing
    await page.click("#c-vs-n", { force: true }).catch(() => {});
    for (let i = 0; i < 25; i++) await page.keyboard.press("Tab");
    for (const key of ["ArrowRight", "ArrowUp", "End", "PageUp", "Home", "1", "Enter", " "]) await page.keyboard.press(key);
    await page.focus("#c-vs-r").catch(() => {});
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("End");
    const focused = await page.evaluate(() => document.activeElement.matches("#controls input, #controls select, #controls button, #tabs button") && document.activeElement.outerHTML);
    assert.equal(focused, false, "no locked control takes the focus");
    await page.evaluate(() => new Promise((r) => setTimeout(r, 400)));
    assert.equal(await page.evaluate(() => window.frictionLab.lab.query()), q, "nothing changed");
    assert.equal(new URL(page.url()).searchParams.get("lock"), "1", "the link keeps the lock");
    await screenshot(page, "locked-exercise.png");
    assert.deepEqual(problems, []);
    await page.close();
  } finally {
    await touch.close();
  }
  // only vs and k0: their rows are disabled, the others move
  const { page, problems } = await openPage(browser.context, `${server.url}?v=1&lock=vs,k0`);
  await ready(page);
  assert.equal(await page.isDisabled("#c-vs-r"), true);
  assert.equal(await page.isDisabled("#c-k0-n"), true);
  assert.equal(await page.isDisabled("#c-mus-r"), false);
  assert.equal(await page.isDisabled("#tab-relaxation"), false);
  await page.focus("#c-mus-r");
  await page.keyboard.press("End");
  await page.waitForFunction(() => /mus=/.test(window.frictionLab.lab.query()));
  assert.doesNotMatch(await page.evaluate(() => window.frictionLab.lab.query()), /vs=|k0=/);
  // a lock key the view does not have is named
  await page.goto(`${server.url}?v=1&lock=vs,nosuch`);
  await ready(page);
  assert.match(await page.textContent("#message-list"), /lock = “nosuch”: not a control of this view/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("hide=values: no parameter value is readable in the page's text or attributes; the host's set still works", async () => {
  const distinct = ["0.0123", "12345", "0.0037"];
  const link = `v=1&vs=${distinct[0]}&k0=${distinct[1]}&tau=${distinct[2]}&embed=1&show=vs,k0,tau`;
  /** Every text a reader (or a screen reader) gets: the rendered text, the values of visible
   * fields, and the attributes that are read out. */
  const readable = (frame) => frame.evaluate(() => {
    const out = [document.body.innerText];
    for (const el of document.querySelectorAll("body *")) {
      // what is not rendered is not read (a hidden element's attributes included)
      if (!el.checkVisibility()) continue;
      for (const a of el.getAttributeNames()) if (/^aria-|^title$|^alt$|^placeholder$/.test(a)) out.push(el.getAttribute(a));
      if (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT") out.push(el.value);
    }
    return out.join("\n");
  });
  // without hide=values the same reading finds them (the check can fail)
  const plain = await openPage(browser.context, `${server.url}?${link}`);
  await ready(plain.page);
  const seen = await readable(plain.page);
  for (const v of distinct) assert.ok(seen.includes(v), `${v} readable without hide=values`);
  await plain.page.close();

  const pages = {};
  const host = await startServer({ root: "/nonexistent", extra: pages });
  Object.assign(pages, lmsHost(`${server.url}?${link}&hide=values&lock=1`, 720));
  try {
    const { page, problems } = await openPage(browser.context, `${host.origin}/lms.html`, { allowedOrigins: [host.origin, server.origin] });
    const frame = await (await page.waitForSelector("#lab")).contentFrame();
    await ready(frame);
    const text = await readable(frame);
    for (const v of distinct) assert.ok(!text.includes(v), `${v} hidden`);
    // nor any other value of the view's controls (of three characters or more), as a number
    // of its own (the allowed ranges in the labels' titles may be read)
    const numbers = new Set(text.match(/-?\d[\d.]*(?:e[+-]?\d+)?/gi));
    const values = await frame.evaluate(() => window.frictionLab.lab.controls().flatMap((c) => c.value.split(",")).filter((v) => v.length >= 3 && /\d/.test(v)));
    assert.ok(values.length >= 5, JSON.stringify(values));
    for (const v of values) assert.ok(!numbers.has(v), `${v} hidden`);
    assert.ok(await countColour(frame, "#loops", PALETTE[0], 40) > 100, "the loops are drawn");
    await page.waitForFunction(() => window.msgs.some((m) => m && m.subject === "lti.frameResize"));
    await screenshot(page, "hidden-values-exercise.png");
    // the quiz reveals the answer: the host's set still works on a locked, hidden figure
    await page.evaluate(() => document.getElementById("lab").contentWindow.postMessage({ target: "friction-lab", id: 1, cmd: "set", values: { vs: "0.03" } }, "*"));
    await page.waitForFunction(() => window.msgs.some((m) => m && m.type === "reply" && m.id === 1));
    const reply = await page.evaluate(() => window.msgs.find((m) => m && m.type === "reply" && m.id === 1));
    assert.equal(reply.ok, true);
    assert.match(reply.query, /vs=0\.03/);
    assert.equal(await frame.evaluate(() => window.frictionLab.lab.get("vs")), "0.03");
    assert.equal(await frame.isDisabled("#c-vs-r"), true, "still locked");
    assert.ok(!(await readable(frame)).includes("0.03"), "the new value is hidden too");
    assert.deepEqual(problems, []);
  } finally {
    await host.close();
  }
  // the full page: no read-out numbers either
  const { page, problems } = await openPage(browser.context, `${server.url}?v=1&vs=${distinct[0]}&hide=values`);
  await ready(page);
  const text = await readable(page);
  assert.ok(!text.includes(distinct[0]));
  assert.equal(await page.isVisible("#readout-table"), false);
  assert.match(await page.getAttribute("#plot", "aria-label"), /values hidden/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("theme=dark under a light system scheme is dark, theme=light under a dark one is light, auto follows the system", async () => {
  const bg = (page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const dark = await launch({ colorScheme: "dark" });
  try {
    for (const [ctx, query, want] of [
      [browser.context, "?v=1&theme=dark", "rgb(22, 22, 22)"],
      [browser.context, "?v=1&theme=auto", "rgb(250, 250, 250)"],
      [dark.context, "?v=1&theme=light", "rgb(250, 250, 250)"],
      [dark.context, "?v=1", "rgb(22, 22, 22)"],
    ]) {
      const { page, problems } = await openPage(ctx, `${server.url}${query}`);
      await ready(page);
      assert.equal(await bg(page), want, query);
      assert.deepEqual(problems, [], query);
      if (query === "?v=1&theme=dark") await screenshot(page, "theme-dark.png");
      await page.close();
    }
  } finally {
    await dark.close();
  }
  const { page } = await openPage(browser.context, `${server.url}?v=1&theme=purple`);
  await ready(page);
  assert.match(await page.textContent("#message-list"), /theme = “purple”: theme= is light, dark or auto/);
  await page.close();
});

test("under TeachBooks' invert(1) hue-rotate(180deg) on the frame the loops stay distinguishable and text keeps ≥ 3:1 contrast", async () => {
  const pages = {};
  const host = await startServer({ root: "/nonexistent", extra: pages });
  pages["/book.html"] = {
    type: "text/html; charset=utf-8",
    body: `<!doctype html><html><head><link rel="icon" href="data:,"><style>body{margin:0;background:#121212} iframe{border:0;display:block}
      .dark iframe { filter: invert(1) hue-rotate(180deg); }</style></head><body>
      <iframe id="lab" src="${server.url}?v=1&embed=1" width="800" height="500" sandbox="allow-scripts allow-same-origin"></iframe></body></html>`,
  };
  try {
    const { page, problems } = await openPage(browser.context, `${host.origin}/book.html`, { allowedOrigins: [host.origin, server.origin] });
    const frame = await (await page.waitForSelector("#lab")).contentFrame();
    await ready(frame);
    const shot = async (name) => {
      const buf = await (await page.$("#lab")).screenshot();
      await mkdir(ARTIFACTS, { recursive: true });
      await writeFile(path.join(ARTIFACTS, name), buf);
      return buf.toString("base64");
    };
    const plainPng = await shot("teachbooks-plain.png");
    await page.evaluate(() => document.body.classList.add("dark"));
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const invertedPng = await shot("teachbooks-inverted.png");
    // the two pictures' pixels, decoded by the browser
    const [plain, inverted] = await page.evaluate(async (pngs) => Promise.all(pngs.map(async (b64) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = new OffscreenCanvas(img.width, img.height);
      const ctx = c.getContext("2d");
      ctx.drawImage(img, 0, 0);
      return { w: img.width, h: img.height, d: [...ctx.getImageData(0, 0, img.width, img.height).data] };
    })), [plainPng, invertedPng]);
    // where a colour is in the plain picture, what that place shows under the filter (median)
    const under = (match) => {
      const seen = [[], [], []];
      for (let i = 0; i < plain.d.length; i += 4) {
        if (match(plain.d[i], plain.d[i + 1], plain.d[i + 2])) for (let k = 0; k < 3; k++) seen[k].push(inverted.d[i + k]);
      }
      const med = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
      return { n: seen[0].length, rgb: seen.map(med) };
    };
    const near = (rgb, tol) => (r, g, b) => Math.abs(r - rgb[0]) <= tol && Math.abs(g - rgb[1]) <= tol && Math.abs(b - rgb[2]) <= tol;
    const ground = under(near([255, 255, 255], 0));
    const text = under((r, g, b) => r < 60 && g < 60 && b < 60);
    const lines = PALETTE.map((c) => under(near(c, 6)));
    const report = JSON.stringify({ ground, text, lines: lines.map((l) => l.rgb) });
    assert.ok(ground.n > 50_000 && text.n > 500, report);
    console.log(`under the filter: text ${contrast(text.rgb, ground.rgb).toFixed(1)}:1, loops ${lines.map((l) => contrast(l.rgb, ground.rgb).toFixed(1)).join(", ")}:1 against the ground ${report}`);
    assert.ok(contrast(text.rgb, ground.rgb) >= 3, `text ${contrast(text.rgb, ground.rgb).toFixed(1)}:1 ${report}`);
    for (const [i, l] of lines.entries()) {
      assert.ok(l.n > 200, `loop ${i} found ${report}`);
      assert.ok(contrast(l.rgb, ground.rgb) >= 3, `loop ${i} ${contrast(l.rgb, ground.rgb).toFixed(1)}:1 against the ground ${report}`);
    }
    // the loops keep distinct colours (each pair apart by a third of the RGB cube's edge at least)
    for (let i = 0; i < lines.length; i++) {
      for (let j = i + 1; j < lines.length; j++) {
        const d = Math.hypot(...lines[i].rgb.map((x, k) => x - lines[j].rgb[k]));
        assert.ok(d > 85, `loops ${i} and ${j} ${d.toFixed(0)} apart ${report}`);
      }
    }
    assert.deepEqual(problems, []);
  } finally {
    await host.close();
  }
});

test("print: the figure at full width, the view's title, the parameter values as a table and the link as text; no slider, no button", async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?v=1&vs=0.02&freqs=10,40`);
  await ready(page);
  await page.emulateMedia({ media: "print" });
  await page.waitForFunction(() => document.querySelectorAll("#print-params tbody tr").length > 5);
  const sheet = await page.evaluate(() => {
    const vis = (el) => el && el.checkVisibility() && el.getBoundingClientRect().width > 0;
    const row = (k) => [...document.querySelectorAll(`#print-params tr[data-key="${k}"] > *`)].map((c) => c.textContent);
    return {
      title: document.querySelector(".print-title").textContent,
      figure: document.getElementById("print-figure").getBoundingClientRect().width,
      page: document.documentElement.clientWidth,
      vs: row("vs"),
      freqs: row("freqs"),
      url: document.getElementById("print-url").textContent,
      sliders: [...document.querySelectorAll("input[type=range]")].filter(vis).length,
      buttons: [...document.querySelectorAll("button")].filter(vis).length,
      inputs: [...document.querySelectorAll("input, select, textarea")].filter(vis).length,
      live: vis(document.getElementById("plot")),
    };
  });
  assert.equal(sheet.title, await page.evaluate(() => window.frictionLab.lab.viewTitle()));
  assert.ok(sheet.figure >= sheet.page - 2, `figure at full width ${JSON.stringify(sheet)}`);
  assert.deepEqual(sheet.vs, ["Stribeck velocity v_S [m/s]", "0.02", "m/s"]);
  assert.deepEqual(sheet.freqs.slice(1), ["10, 40", "Hz"]);
  assert.match(sheet.url, /^Open this figure: http:\/\/127\.0\.0\.1:\d+\/\?v=1&vs=0\.02&freqs=10,40$/);
  assert.deepEqual([sheet.sliders, sheet.buttons, sheet.inputs, sheet.live], [0, 0, 0, false], JSON.stringify(sheet));
  assert.ok(await distinctColours(page, "#print-figure") > 3, "the figure is drawn");
  await page.waitForFunction(() => !document.getElementById("print-qr").hidden);
  assert.equal(await page.isVisible("#print-qr"), true, "and the QR code of the link");
  await page.screenshot({ path: path.join(ARTIFACTS, "print-preview.png"), fullPage: true });
  // the PDF a browser's print writes, as pictures (poppler's pdftoppm, where installed)
  // the PDF is printed with print media (emulation off: page.pdf uses print)
  await page.emulateMedia({ media: null });
  const pdf = await page.pdf({ format: "A4", printBackground: true });
  await writeFile(path.join(ARTIFACTS, "print.pdf"), pdf);
  try {
    execFileSync("pdftoppm", ["-png", "-r", "60", "-f", "1", "-l", "1", path.join(ARTIFACTS, "print.pdf"), path.join(ARTIFACTS, "print-pdf")]);
  } catch {
    console.log("pdftoppm not installed: tests/artifacts/print.pdf not turned into a picture");
  }
  assert.ok(pdf.length > 20_000, `a PDF with the figure (${pdf.length} B)`);
  assert.deepEqual(problems, []);
  await page.close();
});
