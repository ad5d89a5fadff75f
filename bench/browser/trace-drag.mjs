// Investigation (not a test): Chrome trace of the stick-slip slider drag; prints each main-thread
// task over 50 ms with its largest child events, to see where long tasks come from.
//   node bench/browser/trace-drag.mjs [--models lugre,dahl,bristle,karnopp]
import { startServer, launch, openPage } from "../../tests/e2e/harness.js";
const arg = (n, d) => { const i = process.argv.indexOf(`--${n}`); return i > 0 ? process.argv[i + 1] : d; };
const MODELS = arg("models", "lugre,dahl,bristle,karnopp");
const server = await startServer();
const browser = await launch({ viewport: { width: 1366, height: 768 } });
try {
  const { page } = await openPage(browser.context, `${server.url}?v=1&view=stickslip&model=${MODELS}`);
  await page.waitForFunction(() => document.documentElement.dataset.done === "1", null, { timeout: 120_000 });
  const cdp = await browser.context.newCDPSession(page);
  const events = [];
  cdp.on("Tracing.dataCollected", (e) => events.push(...e.value));
  const finished = new Promise((r) => cdp.on("Tracing.tracingComplete", r));
  await cdp.send("Tracing.start", { categories: process.env.CATS || "devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,blink,cc,gpu", transferMode: "ReportEvents" });
  const box = await (await page.$("#c-vb-r")).boundingBox();
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.3, y);
  await page.mouse.down();
  for (let i = 0; i < 60; i++) {
    const f = 0.3 + 0.4 * (i < 30 ? i / 30 : (60 - i) / 30);
    await page.mouse.move(box.x + box.width * f, y);
    await page.waitForTimeout(16);
  }
  await page.mouse.up();
  await page.waitForFunction(() => document.documentElement.dataset.done === "1", null, { timeout: 120_000 });
  await cdp.send("Tracing.end");
  await finished;
  const names = new Map();
  for (const e of events) if (e.name === "thread_name") names.set(`${e.pid}:${e.tid}`, e.args.name);
  const main = events.filter((e) => names.get(`${e.pid}:${e.tid}`) === "CrRendererMain");
  const tasks = main.filter((e) => e.name === "RunTask" && e.ph === "X" && e.dur > 50_000);
  console.log(`${tasks.length} main-thread tasks > 50 ms`);
  for (const t of tasks) {
    const kids = main.filter((e) => e.ph === "X" && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e !== t && e.dur > 2000);
    kids.sort((a, b) => b.dur - a.dur);
    const up = kids.find((k) => k.name === "LayerTreeHost::DoUpdateLayers");
    if (up && process.argv.includes("--deep")) {
      const inner = events.filter((e) => e.ph === "X" && e.tid === up.tid && e.ts >= up.ts && e.ts + e.dur <= up.ts + up.dur && e.dur > 500);
      console.log("  inside DoUpdateLayers: " + inner.map((k) => `${k.name} ${(k.dur / 1000).toFixed(1)}`).join(", "));
    }
    console.log(`task ${(t.dur / 1000).toFixed(1)} ms: ` + kids.slice(0, 8).map((k) => `${k.name}${k.args?.data?.functionName ? "(" + k.args.data.functionName + ")" : ""} ${(k.dur / 1000).toFixed(1)}`).join(", "));
  }
} finally { await browser.close(); await server.close(); }
