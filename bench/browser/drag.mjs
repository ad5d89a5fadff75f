// Slider-drag benchmark (not a test): four models in the stick-slip view, the belt-speed slider
// dragged with the mouse (one move per 16 ms), on the release build in dist/. Reports the
// main-thread long tasks (Long Tasks API: tasks over 50 ms) during the drag and the time from an
// input to the frame painted after it (the page's own performance measures).
//   node bench/browser/drag.mjs [--moves 60] [--models lugre,dahl,bristle,karnopp] [--key vb]
// Build first (`trunk build --release`); this script builds nothing.
import { startServer, launch, openPage } from "../../tests/e2e/harness.js";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const MOVES = Number(arg("moves", "60"));
const MODELS = arg("models", "lugre,dahl,bristle,karnopp");
const KEY = arg("key", "vb");
const VIEW = arg("view", "stickslip");

const stats = (xs) => {
  if (!xs.length) return { n: 0, median: 0, p95: 0, max: 0 };
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, median: q(0.5), p95: q(0.95), max: s[s.length - 1] };
};
const fmt = (o) => `median ${o.median.toFixed(1)} ms, p95 ${o.p95.toFixed(1)} ms, max ${o.max.toFixed(1)} ms (n = ${o.n})`;

const server = await startServer();
const browser = await launch({ viewport: { width: 1366, height: 768 } });
try {
  const watch = () => {
    window.__long = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]); })
      .observe({ type: "longtask", buffered: true });
  };
  const { page, problems } = await openPage(browser.context, `${server.url}?v=1&view=${VIEW}&model=${MODELS}`, { initScript: watch });
  await page.waitForFunction(() => document.documentElement.dataset.ready === "1" && document.documentElement.dataset.done === "1", null, { timeout: 120_000 });
  await page.evaluate(() => { window.frictionLabBench = true; performance.clearMeasures(); });
  const box = await (await page.$(`#c-${KEY}-r`)).boundingBox();
  const y = box.y + box.height / 2;
  const t0 = await page.evaluate(() => performance.now());
  await page.mouse.move(box.x + box.width * 0.3, y);
  await page.mouse.down();
  for (let i = 0; i < MOVES; i++) {
    const f = 0.3 + 0.4 * (i < MOVES / 2 ? i / (MOVES / 2) : (MOVES - i) / (MOVES / 2));
    await page.mouse.move(box.x + box.width * f, y);
    await page.waitForTimeout(16);
  }
  await page.mouse.up();
  const t1 = await page.evaluate(() => performance.now());
  await page.waitForFunction(() => document.documentElement.dataset.done === "1", null, { timeout: 120_000 });
  const long = await page.evaluate(([a, b]) => window.__long.filter(([s]) => s >= a && s <= b).map(([, d]) => d), [t0, t1]);
  const painted = await page.evaluate(() => performance.getEntriesByName("fl-input-to-painted").map((m) => m.duration));
  const tick = await page.evaluate(() => performance.getEntriesByName("fl-tick").map((m) => m.duration));
  console.log(`Friction Lab slider drag: view=${VIEW}, models ${MODELS}, ${MOVES} mouse moves of ${KEY} over ${(t1 - t0).toFixed(0)} ms`);
  console.log(`  long tasks (> 50 ms) during the drag: ${long.length}${long.length ? `, ${fmt(stats(long))}` : ""}`);
  console.log(`  input → frame painted:  ${fmt(stats(painted))}`);
  console.log(`  work in the input's frame (tick): ${fmt(stats(tick))}`);
  if (problems.length) console.log("  problems:", problems);
} finally {
  await browser.close();
  await server.close();
}
