// Main-thread benchmark (not a test) for issue 39's heavy views: opens each link, drags a slider
// while its job runs, and reports the page's longest main-thread task (Long Tasks API: every task
// over 50 ms), how many there were, and the time from each input to the first drawing of the
// new job's output (`fl-input-to-shown`, set by the page when a frame first draws the job of an
// input). The phenomena case opens the matrix and drags a slider while its rows compute.
//   node bench/browser/main-thread.mjs [--loads 3] [--drag 20]
// Build first (`trunk build --release`); this script builds nothing.
import { startServer, launch, openPage, waitUntil } from "../../tests/e2e/harness.js";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const LOADS = Number(arg("loads", "3"));
const DRAG = Number(arg("drag", "20"));

const CASES = [
  { name: "stick-slip, four models", q: "view=stickslip&model=lugre,dahl,gms,elasto-plastic", key: "kspring" },
  { name: "sweep", q: "view=sweep&model=liang,brown-mcphee", key: null },
  { name: "robot run", q: "view=robot", key: null },
  { name: "explorer, three models", q: "view=explorer&model=lugre,dahl,gms", key: null },
  { name: "phenomena matrix", q: "view=stickslip", key: null, phenomena: true },
  { name: "default view", q: "", key: "vs" },
];

const OBSERVE = () => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
};

const server = await startServer();
const browser = await launch();
try {
  for (const c of CASES) {
    const longest = [];
    const counts = [];
    const shown = [];
    let worker = false;
    for (let l = 0; l < LOADS; l++) {
      const { page, problems } = await openPage(browser.context, `${server.url}?${c.q}`, { initScript: OBSERVE });
      // every wait polls by evaluate: Playwright's waitForFunction and selector calls would add its
      // injected script's parse (20-50 ms) to the page's tasks at load
      await waitUntil(page, () => Boolean(window.frictionLab?.lab));
      if (c.phenomena) {
        await page.evaluate(() => { const d = document.getElementById("phenomena-panel"); d.open = true; d.dispatchEvent(new Event("toggle")); });
      }
      // the slider moved while the job runs: a key slider of the view (the first control's
      // range input when none is named)
      const sel = c.key ? `#c-${c.key}-r` : "input[type=range]";
      await waitUntil(page, (s) => { const el = document.querySelector(s); el?.focus(); return Boolean(el); }, sel);
      const dragStart = await page.evaluate(() => performance.now());
      for (let i = 0; i < DRAG; i++) {
        await page.keyboard.press(i < DRAG / 2 ? "ArrowRight" : "ArrowLeft");
        await page.waitForTimeout(30);
      }
      try {
        await waitUntil(page, () => document.documentElement.dataset.done === "1", null, { timeout: 60000 });
      } catch { /* reported below as not done */ }
      if (c.phenomena) {
        await waitUntil(page, () => /models\./.test(document.getElementById("phenomena-status")?.textContent ?? ""), null, { timeout: 120000, polling: 250 }).catch(() => {});
      }
      // the page starts its worker once the link's first job is done (or after 1.5 s)
      worker ||= await page.evaluate(() => Boolean(window.frictionLab.worker));
      const r = await page.evaluate(() => ({
        tasks: window.__longTasks,
        shown: performance.getEntriesByName("fl-input-to-shown").map((m) => m.duration),
        done: document.documentElement.dataset.done,
      }));
      const load = r.tasks.filter(([t]) => t < dragStart).map(([, d]) => d);
      const drag = r.tasks.filter(([t]) => t >= dragStart).map(([, d]) => d);
      longest.push(`${Math.max(0, ...load).toFixed(0)}+${Math.max(0, ...drag).toFixed(0)}`);
      counts.push(`${load.length}+${drag.length}`);
      shown.push(...r.shown);
      if (problems.length) console.log("  problems:", problems);
      if (r.done !== "1") console.log("  not done");
      await page.close();
    }
    console.log(`${c.name.padEnd(26)} worker ${worker ? "yes" : "no "}  longest task per load (loading+dragging) ${longest.join(" / ")} ms, ` +
      `tasks > 50 ms ${counts.join(" / ")}; input → new job shown median ${median(shown).toFixed(1)} ms, max ${Math.max(0, ...shown).toFixed(1)} ms (n = ${shown.length})`);
  }
} finally {
  await browser.close();
  await server.close();
}
