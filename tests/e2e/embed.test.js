// Embedding (issue 15): the compact embed in a cross-origin iframe with sandbox="allow-scripts"
// (an opaque origin) from a server that sends no CORS header, at 400×300, 800×500 and 1200×800;
// the postMessage API from a host page on another port, with an origin= allow-list; history
// (Back after a view switch); the bad-link badge of an embedded figure.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launch, openPage, screenshot, countColour } from "./harness.js";

const BLUE = [0x00, 0x72, 0xb2]; // the first loop's colour (friction_plot::PALETTE)

let server, browser;
before(async () => {
  server = await startServer(); // no Access-Control-Allow-Origin header
  browser = await launch();
});
after(async () => { await browser?.close(); await server?.close(); });

const ready = (page) => page.waitForFunction(() => document.documentElement.dataset.ready === "1" && document.documentElement.dataset.done === "1", null, { timeout: 30_000 });

/** A host page on its own origin with the frame `src` between two long blocks of notes. */
function hostPage(src, { width, height, sandbox = "allow-scripts", script = "" }) {
  return {
    "/host.html": {
      type: "text/html; charset=utf-8",
      body: `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
        <input id="host-input" value="host"><div style="height:150px">course notes…</div>
        <iframe id="lab" src="${src}" sandbox="${sandbox}" width="${width}" height="${height}" style="border:0"></iframe>
        <div style="height:3000px">more notes</div><script>${script}</script></body></html>`,
    },
  };
}

// the module loader's refused requests in an opaque-origin frame without CORS (the classic path
// in boot.js takes over); anything else is a problem
const CORS_NOISE = /CORS|Access-Control-Allow-Origin|Failed to load module script|net::ERR_FAILED|preload/;

for (const [width, height] of [[400, 300], [800, 500], [1200, 800]]) {
  test(`embed ${width}×${height} in a sandbox="allow-scripts" frame from a server without CORS: draws, fits, leaves the host alone`, async () => {
    const src = `${server.url}?v=1&view=${width === 400 ? "stickslip" : "hysteresis"}&embed=1`;
    const host = await startServer({ root: "/nonexistent", extra: hostPage(src, { width, height }) });
    try {
      const { page, problems } = await openPage(browser.context, `${host.origin}/host.html`, { allowedOrigins: [host.origin, server.origin] });
      await page.setViewportSize({ width: Math.max(1300, width + 50), height: 1000 });
      await page.focus("#host-input");
      await page.evaluate(() => scrollTo(0, 40));
      const frame = await (await page.waitForSelector("#lab")).contentFrame();
      await frame.waitForFunction(() => document.documentElement.dataset.ready === "1" || document.getElementById("status").className === "error", null, { timeout: 30_000 });
      assert.equal(await frame.evaluate(() => origin), "null", "opaque origin");
      assert.equal(await frame.evaluate(() => document.getElementById("status").className), "", `no error message: it loaded (${await frame.evaluate(() => document.getElementById("status").textContent)})`);
      await frame.waitForFunction(() => document.documentElement.dataset.done === "1", null, { timeout: 30_000 });
      await (await page.$("#lab")).screenshot({ path: new URL(`../artifacts/embed-${width}x${height}.png`, import.meta.url).pathname });
      const drawn = await countColour(frame, "#loops", BLUE, 40);
      assert.ok(drawn > 30, `curves drawn (${drawn} px)`);
      const layout = await frame.evaluate(() => {
        const de = document.documentElement;
        const r = (id) => document.getElementById(id).getBoundingClientRect();
        const strip = document.getElementById("controls");
        return {
          overflow: de.scrollWidth - de.clientWidth, vOverflow: de.scrollHeight - de.clientHeight,
          strip: strip.scrollWidth - strip.clientWidth, plot: r("stage"), controls: r("controls"),
          foot: document.querySelector(".embed-foot").getBoundingClientRect(), n: strip.querySelectorAll("input[type=range], select").length,
        };
      });
      assert.ok(layout.overflow <= 0 && layout.vOverflow <= 0, `no scrollbars ${JSON.stringify(layout)}`);
      assert.ok(layout.strip <= 0, "the strip never scrolls sideways");
      assert.ok(layout.plot.bottom <= layout.foot.top + 0.5 && layout.foot.bottom <= layout.controls.top + 0.5, `plot, link and strip do not overlap ${JSON.stringify(layout)}`);
      assert.ok(layout.plot.height >= 0.5 * height, `the plot dominates (${layout.plot.height} of ${height} px)`);
      assert.ok(layout.n >= 2 && layout.n <= 6, `a few controls, the view's key ones (${layout.n})`);
      assert.equal(await page.evaluate(() => scrollY), 40, "host not scrolled by the load");
      assert.equal(await page.evaluate(() => document.activeElement.id), "host-input", "host keeps its focus after the load");
      // a control used the way a pointer drag does it (input, then change): no focus taken, no scroll
      const before = await frame.evaluate(() => window.frictionLab.lab.query());
      await frame.evaluate(() => {
        const r = document.querySelector("#controls input[type=range]");
        r.value = String(Number(r.value) > 500 ? 300 : 700);
        r.dispatchEvent(new Event("input", { bubbles: true }));
        r.dispatchEvent(new Event("change", { bubbles: true }));
      });
      await frame.waitForFunction((q) => window.frictionLab.lab.query() !== q, before);
      await frame.waitForFunction(() => document.documentElement.dataset.done === "1", null, { timeout: 30_000 });
      assert.equal(await page.evaluate(() => scrollY), 40, "host not scrolled by a control");
      assert.equal(await page.evaluate(() => document.activeElement.id), "host-input", "host keeps its focus after a control is used");
      assert.ok(await frame.evaluate(() => document.getElementById("controls").scrollWidth <= document.getElementById("controls").clientWidth));
      await (await page.$("#lab")).screenshot({ path: new URL(`../artifacts/embed-${width}x${height}.png`, import.meta.url).pathname });
      assert.deepEqual(problems.filter((p) => !CORS_NOISE.test(p)), []);
    } finally {
      await host.close();
    }
  });
}

test("show= chooses the strip's controls, controls=0 none; the link out is never a dead control", async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?v=1&embed=1&show=freqs,mus`);
  await ready(page);
  const keys = await page.$$eval("#controls .group > .ctl", (rows) => rows.filter((r) => !r.hidden).map((r) => r.dataset.key));
  assert.deepEqual(keys, ["freqs", "mus"]);
  await page.goto(`${server.url}?v=1&embed=1`);
  await ready(page);
  const defaults = await page.$$eval("#controls .group > .ctl", (rows) => rows.map((r) => r.dataset.key));
  assert.deepEqual(defaults, ["vs", "k0", "tau"], "the view's first three key controls (the core's)");
  // the embed hides a list's heading: its first entry says what it is, not only "τ_1"
  const tauLabel = () => page.$eval('#controls .ctl[data-key="tau"] .elem label', (l) => l.innerText.trim());
  assert.equal(await tauLabel(), "Relaxation time τ_1 [s]");
  await page.goto(`${server.url}?v=1`);
  await ready(page);
  assert.equal(await tauLabel(), "τ_1", "under the heading on the page the symbol is enough");
  await page.goto(`${server.url}?v=1&embed=1`);
  await ready(page);
  await page.goto(`${server.url}?v=1&embed=1&view=stickslip`);
  await ready(page);
  assert.deepEqual(await page.$$eval("#controls .group > .ctl", (rows) => rows.map((r) => r.dataset.key)), ["vb", "kspring", "model"]);
  assert.equal(await page.$$eval("#controls select", (s) => s.filter((x) => x.offsetParent).length), 2, "the example's two models (LuGre, Coulomb): no empty overlay slots");
  assert.deepEqual(problems, []);
  // in a frame without allow-popups, "Open in Friction Lab" shows the link to copy instead
  const host = await startServer({ root: "/nonexistent", extra: hostPage(`${server.url}?v=1&embed=1`, { width: 700, height: 450, sandbox: "allow-scripts allow-same-origin" }) });
  try {
    const { page: hp } = await openPage(browser.context, `${host.origin}/host.html`, { allowedOrigins: [host.origin, server.origin] });
    const frame = await (await hp.waitForSelector("#lab")).contentFrame();
    await frame.waitForFunction(() => document.documentElement.dataset.ready === "1");
    await frame.click("#open-full");
    await frame.waitForFunction(() => !document.getElementById("messages").hidden);
    const shown = await frame.$eval("#message-list input", (i) => i.value);
    assert.match(shown, /^http:\/\/127\.0\.0\.1:\d+\/\?v=1$/);
  } finally {
    await host.close();
  }
});

test("postMessage API: a host on another origin sets, gets, hears state and resize; other origins are ignored", async () => {
  const collect = `window.msgs = []; addEventListener("message", (e) => { if (e.data && e.data.source === "friction-lab") window.msgs.push(e.data); });
    window.send = (m) => document.getElementById("lab").contentWindow.postMessage({ target: "friction-lab", ...m }, "*");`;
  // the host pages are filled in once their origins (ports) are known
  const goodPages = {}, otherPages = {};
  const good = await startServer({ root: "/nonexistent", extra: goodPages });
  const other = await startServer({ root: "/nonexistent", extra: otherPages });
  const src = `${server.url}?v=1&embed=1&origin=${encodeURIComponent(good.origin)}`;
  const sandbox = "allow-scripts allow-same-origin";
  Object.assign(goodPages, hostPage(src, { width: 700, height: 450, sandbox, script: collect }));
  Object.assign(otherPages, hostPage(src, { width: 700, height: 450, sandbox, script: collect }));
  try {
    const { page, problems } = await openPage(browser.context, `${good.origin}/host.html`, { allowedOrigins: [good.origin, server.origin] });
    const frame = await (await page.waitForSelector("#lab")).contentFrame();
    await frame.waitForFunction(() => document.documentElement.dataset.ready === "1");
    await page.waitForFunction(() => window.msgs.some((m) => m.type === "ready") && window.msgs.some((m) => m.type === "resize"));
    const resize = await page.evaluate(() => window.msgs.find((m) => m.type === "resize"));
    assert.ok(resize.height > 100 && resize.width > 600, `resize event ${JSON.stringify(resize)}`);
    await page.evaluate(() => window.send({ id: 7, cmd: "set", values: { vs: "0.02", k0: "-1" } }));
    await page.waitForFunction(() => window.msgs.some((m) => m.type === "reply" && m.id === 7));
    const reply = await page.evaluate(() => window.msgs.find((m) => m.type === "reply" && m.id === 7));
    assert.equal(reply.ok, false);
    assert.deepEqual(reply.errors.map((e) => e.key), ["k0"], "the bad value is named, the good one applied");
    assert.match(reply.errors[0].message, /k0/);
    assert.match(reply.query, /vs=0\.02/);
    await page.waitForFunction(() => window.msgs.some((m) => m.type === "state" && /vs=0\.02/.test(m.query)));
    assert.equal(await frame.inputValue("#c-vs-n"), "0.02", "the control follows");
    await page.evaluate(() => window.send({ id: 8, cmd: "get", keys: ["vs", "k0"] }));
    await page.waitForFunction(() => window.msgs.some((m) => m.type === "reply" && m.id === 8));
    const got = await page.evaluate(() => window.msgs.find((m) => m.type === "reply" && m.id === 8));
    assert.deepEqual(got.values, { vs: "0.02", k0: "10000" });
    // malformed messages are ignored without a reply or an error
    await page.evaluate(() => {
      const w = document.getElementById("lab").contentWindow;
      for (const m of [null, 42, "set", { cmd: "set" }, { target: "friction-lab" }, { target: "friction-lab", cmd: 5 }]) w.postMessage(m, "*");
      window.send({ id: 9, cmd: "view", view: "relaxation" });
    });
    await page.waitForFunction(() => window.msgs.some((m) => m.type === "reply" && m.id === 9));
    assert.equal(await frame.evaluate(() => window.frictionLab.lab.view()), "relaxation");
    assert.equal(await page.evaluate(() => window.msgs.filter((m) => m.type === "reply").length), 3, "no reply to malformed messages");
    await page.evaluate(() => window.send({ id: 10, cmd: "reset" }));
    await page.waitForFunction(() => window.msgs.some((m) => m.type === "reply" && m.id === 10));
    assert.equal(await frame.evaluate(() => window.frictionLab.lab.query()), "v=1&view=relaxation");
    // the host picks the chart panels of a multi-panel view; a number the view lacks is refused
    await page.evaluate(() => window.send({ id: 11, cmd: "set", values: { view: "stickslip", panels: "5" } }));
    await page.waitForFunction(() => window.msgs.some((m) => m.type === "reply" && m.id === 11));
    assert.equal(await page.evaluate(() => window.msgs.find((m) => m.type === "reply" && m.id === 11).ok), true);
    assert.equal(await frame.evaluate(() => window.frictionLab.lab.viewLayout().panels), 1);
    await page.evaluate(() => window.send({ id: 12, cmd: "set", values: { panels: "7" } }));
    await page.waitForFunction(() => window.msgs.some((m) => m.type === "reply" && m.id === 12));
    const refused = await page.evaluate(() => window.msgs.find((m) => m.type === "reply" && m.id === 12));
    assert.deepEqual(refused.errors.map((e) => e.key), ["panels"]);
    assert.match(refused.errors[0].message, /panels = "7".*from 1 to 6/);
    assert.equal(await frame.evaluate(() => window.frictionLab.lab.panelChoice()), "5", "a refused list changes nothing");
    // what the host set it can read back
    await page.evaluate(() => window.send({ id: 13, cmd: "get", keys: ["panels", "vb"] }));
    await page.waitForFunction(() => window.msgs.some((m) => m.type === "reply" && m.id === 13));
    assert.deepEqual(await page.evaluate(() => window.msgs.find((m) => m.type === "reply" && m.id === 13).values), { vb: "0.1", panels: "5" });
    assert.deepEqual(problems, []);

    // the same frame under a host of another origin: its commands are ignored, it hears nothing
    const { page: op } = await openPage(browser.context, `${other.origin}/host.html`, { allowedOrigins: [other.origin, server.origin] });
    const of = await (await op.waitForSelector("#lab")).contentFrame();
    await of.waitForFunction(() => document.documentElement.dataset.ready === "1");
    await op.evaluate(() => window.send({ id: 1, cmd: "set", values: { vs: "0.05" } }));
    // a message posted after the command arrives after it: then nothing may have changed
    await op.evaluate(() => window.send({ id: 2, cmd: "get" }));
    await of.evaluate(() => new Promise((r) => setTimeout(r, 0)));
    await of.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.equal(await of.evaluate(() => window.frictionLab.lab.get("vs")), "0.01", "a command from an origin outside origin= is ignored");
    assert.equal(await op.evaluate(() => window.msgs.length), 0, "events and replies go only to the allowed origin");
  } finally {
    await good.close();
    await other.close();
  }
});

test("postMessage set is one change: its keys in any order give the same state; a refusal names every key", async () => {
  const collect = `window.msgs = []; addEventListener("message", (e) => { if (e.data && e.data.source === "friction-lab") window.msgs.push(e.data); });
    window.send = (m) => document.getElementById("lab").contentWindow.postMessage({ target: "friction-lab", ...m }, "*");`;
  const pages = {};
  const host = await startServer({ root: "/nonexistent", extra: pages });
  Object.assign(pages, hostPage(`${server.url}?view=curve&model=lugre&embed=1`, { width: 700, height: 450, sandbox: "allow-scripts allow-same-origin", script: collect }));
  try {
    const { page, problems } = await openPage(browser.context, `${host.origin}/host.html`, { allowedOrigins: [host.origin, server.origin] });
    const frame = await (await page.waitForSelector("#lab")).contentFrame();
    await frame.waitForFunction(() => document.documentElement.dataset.ready === "1");
    const reply = async (id, values) => {
      await page.evaluate(([id, values]) => window.send({ id, cmd: "set", values }), [id, values]);
      await page.waitForFunction((id) => window.msgs.some((m) => m.type === "reply" && m.id === id), id);
      return page.evaluate((id) => window.msgs.find((m) => m.type === "reply" && m.id === id), id);
    };
    // μ_k above μ_s's default, given first: checked against the μ_s of the same message
    const a = await reply(1, { muk: "0.5", mus: "0.6" });
    assert.equal(a.ok, true, JSON.stringify(a.errors));
    await page.evaluate(() => window.send({ id: 2, cmd: "reset" }));
    const b = await reply(3, { mus: "0.6", muk: "0.5" });
    assert.equal(b.ok, true, JSON.stringify(b.errors));
    assert.equal(b.query, a.query);
    assert.match(a.query, /mus=0\.6/);
    assert.match(a.query, /muk=0\.5/);
    // a pair that breaks the rule: the key put back is named with the other key of the rule
    const c = await reply(4, { muk: "0.9", vs: "0.02" });
    assert.equal(c.ok, false);
    assert.deepEqual(c.errors.map((e) => e.key), ["muk"]);
    assert.deepEqual([...c.errors[0].keys].sort(), ["mus", "muk"].sort());
    assert.match(c.errors[0].message, /needs mus ≥ muk; with mus = 0\.6/);
    assert.match(c.query, /vs=0\.02/, "the rest applied");
    assert.match(c.query, /muk=0\.5/, "muk kept its value");
    assert.deepEqual(problems, []);
  } finally {
    await host.close();
  }
});

test("Back after a view switch returns to the previous view; slider moves do not add entries", async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?v=1&vs=0.02`);
  await ready(page);
  const length = await page.evaluate(() => history.length);
  await page.focus("#c-vs-r");
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => new URLSearchParams(location.search).get("vs") !== "0.02");
  const vs = await page.inputValue("#c-vs-n");
  assert.equal(await page.evaluate(() => history.length), length, "a slider move replaces the entry");
  await page.click("#tab-relaxation");
  await page.waitForFunction(() => /view=relaxation/.test(location.search));
  assert.equal(await page.evaluate(() => history.length), length + 1, "a view switch pushes one");
  await ready(page);
  await page.goBack();
  await page.waitForFunction(() => window.frictionLab.lab.view() === "hysteresis");
  await ready(page);
  assert.equal(await page.getAttribute("#tab-hysteresis", "aria-selected"), "true");
  assert.equal(await page.inputValue("#c-vs-n"), vs, "the view left comes back with its last values");
  assert.equal(new URL(page.url()).searchParams.get("vs"), vs);
  await page.goForward();
  await page.waitForFunction(() => window.frictionLab.lab.view() === "relaxation");
  assert.equal(await page.getAttribute("#tab-relaxation", "aria-selected"), "true");
  assert.deepEqual(problems, []);
});

test("a bad link names only the bad keys (known keys behind a disclosure); embedded, it is a small badge", async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?v=1&zzz=1&k0=-5`);
  await ready(page);
  const items = await page.$$eval("#message-list li", (lis) => lis.map((li) => li.textContent));
  assert.equal(items.length, 2);
  // (listed in key order, whatever the link's)
  assert.match(items[1], /zzz/);
  assert.doesNotMatch(items.join(" "), /known keys|mus, mud/, "the list does not spell out every key");
  assert.equal(await page.isVisible("#known-keys"), true);
  assert.equal(await page.evaluate(() => document.getElementById("known-keys").open), false, "known keys start closed");
  assert.match(await page.textContent("#known-keys-list"), /\bvs\b.*\bk0\b|\bk0\b.*\bvs\b/);
  await page.click("#dismiss-messages");
  assert.equal(await page.isHidden("#messages"), true, "dismissed");
  await page.goto(`${server.url}?v=1&zzz=1&embed=1`);
  await ready(page);
  assert.equal(await page.isHidden("#messages"), true, "no banner over an embedded figure");
  assert.equal(await page.isVisible("#link-badge"), true);
  const badge = await page.$eval("#link-badge", (b) => { const r = b.getBoundingClientRect(); return { h: r.height, text: b.textContent }; });
  assert.ok(badge.h < 30, `a small badge (${badge.h} px)`);
  assert.match(badge.text, /1 link setting ignored/);
  await page.click("#link-badge");
  assert.equal(await page.isVisible("#messages"), true, "the badge opens the list");
  await screenshot(page, "embed-bad-link-open.png");
  assert.deepEqual(problems, []);
});

test("the Embed panel builds the snippet from the chosen controls and size, with a live preview", async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?v=1&vs=0.02`);
  await ready(page);
  await page.click("#embed-button");
  const boxes = await page.$$eval("#embed-show input", (cbs) => cbs.map((c) => [c.value, c.checked]));
  assert.deepEqual(boxes.slice(0, 4), [["vs", true], ["k0", true], ["tau", true], ["freqs", false]], "the core's key controls first, the default three ticked");
  assert.doesNotMatch(await page.inputValue("#embed-code"), /show=/, "the default needs no show=");
  await page.uncheck('#embed-show input[value="tau"]');
  await page.check('#embed-show input[value="freqs"]');
  await page.selectOption("#embed-size", "400x300");
  const snippet = await page.inputValue("#embed-code");
  assert.match(snippet, /&amp;show=vs,k0,freqs"/);
  assert.match(snippet, /width="400" height="300"/);
  await page.click("#embed-preview-button");
  const frame = await (await page.waitForSelector("#embed-preview iframe")).contentFrame();
  await frame.waitForFunction(() => document.documentElement.dataset.ready === "1");
  assert.deepEqual(await frame.$$eval("#controls .group > .ctl", (rows) => rows.map((r) => r.dataset.key)), ["vs", "k0", "freqs"]);
  assert.equal(await frame.inputValue("#c-vs-n"), "0.02", "the preview shows the current state");
  assert.deepEqual(await page.$eval("#embed-preview iframe", (f) => [f.width, f.height]), ["400", "300"]);
  assert.deepEqual(problems, []);
});

test("panels= shows an embed's chosen panels; a bad list is reported; the Embed panel writes it", async () => {
  const svgOf = (page) => page.evaluate(() => window.frictionLab.lab.exportSvg(900, 560, ""));
  const { page, problems } = await openPage(browser.context, `${server.url}?v=1&view=stickslip&embed=1&panels=5`);
  await ready(page);
  const svg = await svgOf(page);
  assert.match(svg, /Friction force against relative velocity/);
  assert.doesNotMatch(svg, /Position against time|Friction force against time/, "the other five panels are not drawn");
  assert.equal(await page.evaluate(() => window.frictionLab.lab.viewLayout().panels), 1, "the frame lays out one panel");
  assert.match(await page.evaluate(() => window.frictionLab.fullUrl(true)), /&panels=5(&|$)/, "the frame's own link keeps the choice");
  assert.doesNotMatch(await page.getAttribute("#open-full", "href"), /panels=/, "the full page shows every panel");
  assert.ok(await countColour(page, "#loops", BLUE, 40) > 100, "the one panel's curve is drawn");
  await screenshot(page, "embed-one-panel.png");
  // a list that names no panel of the view: said, with what is allowed, and all six shown
  await page.goto(`${server.url}?v=1&view=stickslip&embed=1&panels=9`);
  await ready(page);
  assert.match(await page.textContent("#link-badge"), /1 link setting ignored/);
  await page.click("#link-badge");
  const items = await page.$$eval("#message-list li", (lis) => lis.map((li) => li.textContent));
  assert.equal(items.length, 1);
  assert.match(items[0], /panels = “9”.*from 1 to 6/);
  assert.equal(await page.evaluate(() => window.frictionLab.lab.viewLayout().panels), 6);
  // the full page's Embed panel: one box per panel, all ticked (no key); picking one writes it
  await page.goto(`${server.url}?v=1&view=stickslip`);
  await ready(page);
  await page.click("#embed-button");
  const boxes = await page.$$eval("#embed-panels input", (cbs) => cbs.map((c) => [c.value, c.checked, c.parentElement.textContent]));
  assert.equal(boxes.length, 6);
  assert.ok(boxes.every(([, on]) => on), "all ticked at first");
  assert.equal(boxes[4][2], "Friction force against relative velocity");
  assert.doesNotMatch(await page.inputValue("#embed-code"), /panels=/);
  for (const v of ["1", "2", "3", "4", "6"]) await page.uncheck(`#embed-panels input[value="${v}"]`);
  assert.match(await page.inputValue("#embed-code"), /&amp;panels=5[&"]/);
  await page.click("#embed-preview-button");
  const frame = await (await page.waitForSelector("#embed-preview iframe")).contentFrame();
  await frame.waitForFunction(() => document.documentElement.dataset.ready === "1");
  assert.equal(await frame.evaluate(() => window.frictionLab.lab.viewLayout().panels), 1, "the preview shows the chosen panel");
  // a view of one panel offers no choice
  await page.goto(`${server.url}?v=1`);
  await ready(page);
  await page.click("#embed-button");
  assert.equal(await page.isHidden("#embed-panels"), true);
  assert.deepEqual(problems, []);
});

test("page keys of a hand-edited link: a malformed escape, an unknown show= key or a bad origin= is named, the figure still drawn", async () => {
  const cases = [
    // [link, key named, what the message says]
    ["show=%E0", "show", /show = “%E0”: not a control of this view/],
    ["show=%zz,mus", "show", /show = “%zz”: not a control of this view/],
    ["show=nope,mus", "show", /show = “nope”: not a control of this view/],
    ["origin=%E0", "origin", /origin = “%E0”: not an origin.*https:\/\/course\.example\.org/],
    ["origin=https://ok.example,https://bad.example/path", "origin", /origin = “https:\/\/bad\.example\/path”: not an origin/],
  ];
  const { page, problems } = await openPage(browser.context, `${server.url}?v=1&embed=1`);
  for (const [keys, key, said] of cases) {
    await page.goto(`${server.url}?v=1&embed=1&${keys}`);
    await ready(page);
    assert.equal(await page.evaluate(() => document.getElementById("status").hidden), true, `${keys}: the page started`);
    assert.ok(await countColour(page, "#loops", BLUE, 40) > 30, `${keys}: the figure is drawn`);
    assert.match(await page.textContent("#link-badge"), /1 link setting ignored/, keys);
    await page.click("#link-badge");
    const items = await page.$$eval("#message-list li", (lis) => lis.map((li) => [li.dataset.key, li.textContent]));
    assert.equal(items.length, 1, `${keys}: ${JSON.stringify(items)}`);
    assert.equal(items[0][0], key);
    assert.match(items[0][1], said);
  }
  // the good show= key of a list with a bad one still gets its control
  await page.goto(`${server.url}?v=1&embed=1&show=nope,mus`);
  await ready(page);
  assert.deepEqual(await page.$$eval("#controls .group > .ctl", (rows) => rows.map((r) => r.dataset.key)), ["mus"]);
  assert.deepEqual(problems, []);
});
