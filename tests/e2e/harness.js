// Shared e2e harness: a static server for dist/ on a free loopback port, and Debian's Chromium
// driven by playwright-core. Every page opened through `openPage` fails the test on any page
// error, console error, or request that leaves the page's origin.
import { createServer } from "node:http";
import { readFile, mkdtemp, rm, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";

export const DIST = process.env.DIST_DIR || path.resolve(import.meta.dirname, "../../dist");
export const ARTIFACTS = path.resolve(import.meta.dirname, "../artifacts");

const MIME = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".wasm": "application/wasm",
  ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png", ".json": "application/json",
};

/**
 * Serves `root` on 127.0.0.1 at a free port. `prefix` mounts it under a sub-path (e.g. "/course/lab/")
 * to check that asset URLs are relative. `extra` maps URL paths to {type, body} for host pages.
 */
export async function startServer({ root = DIST, prefix = "/", extra = {}, cors = false } = {}) {
  // `cors` adds `Access-Control-Allow-Origin: *` as GitHub Pages does: a page in an iframe with
  // sandbox="allow-scripts" has an opaque origin, so its module scripts and wasm fetch are
  // cross-origin requests even to the page's own server.
  const common = cors ? { "access-control-allow-origin": "*" } : {};
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    if (extra[url.pathname]) {
      res.writeHead(200, { "content-type": extra[url.pathname].type });
      res.end(extra[url.pathname].body);
      return;
    }
    if (!url.pathname.startsWith(prefix)) { res.writeHead(404); res.end("not found"); return; }
    let rel = decodeURIComponent(url.pathname.slice(prefix.length)) || "index.html";
    if (rel.endsWith("/")) rel += "index.html";
    const file = path.join(root, rel);
    if (!file.startsWith(root)) { res.writeHead(403); res.end(); return; }
    try {
      const body = await readFile(file);
      res.writeHead(200, { ...common, "content-type": MIME[path.extname(file)] || "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404); res.end("not found");
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address();
  return { origin: `http://127.0.0.1:${port}`, url: `http://127.0.0.1:${port}${prefix}`, port,
           close: () => new Promise((ok) => { server.closeAllConnections?.(); server.close(ok); }) };
}

const CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** Launches Debian's Chromium headless with a fresh profile (a phone: `isMobile`, `hasTouch`;
 * `colorScheme` "dark" for the dark theme); `close()` removes the profile. */
export async function launch({ deviceScaleFactor = 1, viewport = { width: 1280, height: 900 }, isMobile = false, hasTouch = false, colorScheme = "light" } = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), "fl-e2e-"));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true, args: CHROME_ARGS, deviceScaleFactor, viewport, isMobile, hasTouch, colorScheme,
  });
  return { context, close: async () => { await context.close(); await rm(dir, { recursive: true, force: true }); } };
}

/**
 * Opens `url` in a new page and records problems: page errors, console errors and any request
 * whose origin is not one of `allowedOrigins` (default: the page's own). `initScript` runs in
 * the page before its own scripts.
 */
export async function openPage(context, url, { allowedOrigins, initScript } = {}) {
  const page = await context.newPage();
  // runs before the page's own scripts (e.g. to watch states too short-lived to poll for)
  if (initScript) await page.addInitScript(initScript);
  const problems = [];
  const allowed = new Set(allowedOrigins || [new URL(url).origin]);
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => { if (m.type() === "error") problems.push(`console.error: ${m.text()}`); });
  page.on("response", (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  page.on("request", (r) => {
    const u = r.url();
    if (u.startsWith("data:") || u.startsWith("blob:") || u.startsWith("about:")) return;
    if (!allowed.has(new URL(u).origin)) problems.push(`request left the origin: ${u}`);
  });
  await page.goto(url);
  return { page, problems };
}

/**
 * Waits until `fn(arg)`, evaluated in the page every `polling` ms, returns a truthy value (and
 * returns it); throws after `timeout` ms. For benchmarks that count the page's long tasks:
 * Playwright's `waitForFunction`, `waitForSelector` and selector-taking calls first evaluate its
 * injected script in the page, a parse of 20-50 ms on the page's main thread that the Long Tasks
 * API reports as the page's own; `page.evaluate` of a function does not.
 */
export async function waitUntil(page, fn, arg = null, { timeout = 30000, polling = 100 } = {}) {
  const until = Date.now() + timeout;
  for (;;) {
    const v = await page.evaluate(fn, arg);
    if (v) return v;
    if (Date.now() > until) throw new Error(`waitUntil: not true within ${timeout} ms`);
    await new Promise((r) => setTimeout(r, polling));
  }
}

/**
 * Opens a host page on an origin of its own that frames the page's `query` in an opaque-origin
 * iframe (`#lab`, sandbox="allow-scripts" without allow-same-origin), the page served with CORS
 * as GitHub Pages serves it. Returns `{page, problems, frame, close}`.
 */
export async function openOpaqueFrame(context, query, { width = 1000, height = 700 } = {}) {
  const embedded = await startServer({ cors: true });
  const host = await startServer({
    root: "/nonexistent",
    extra: {
      "/host.html": {
        type: "text/html; charset=utf-8",
        body: `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
          <iframe id="lab" src="${embedded.url}?${query}" sandbox="allow-scripts" width="${width}" height="${height}" style="border:0"></iframe></body></html>`,
      },
    },
  });
  const close = async () => { await host.close(); await embedded.close(); };
  try {
    const { page, problems } = await openPage(context, `${host.origin}/host.html`, { allowedOrigins: [host.origin, embedded.origin] });
    const frame = await (await page.waitForSelector("#lab")).contentFrame();
    return { page, problems, frame, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Saves a screenshot under tests/artifacts/ (look at it!). */
export async function screenshot(page, name) {
  await mkdir(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, name);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/**
 * Browser code: the RGBA pixels of canvas `c` inside `rect` (fractions of the canvas; default the
 * whole canvas), read through `createImageBitmap` rather than `c.getContext("2d")`. The plot's
 * canvases may be handed to a worker with `transferControlToOffscreen()`, after which `getContext`
 * on them throws while an image bitmap still shows what the worker last committed; on an ordinary
 * canvas both read the same pixels. Sizes come from the bitmap: a transferred canvas' width and
 * height attributes may lag the size its worker draws at. `createImageBitmap` is called before the
 * first `await`, so the picture is the canvas' at the moment of the call. Returns
 * `{data, width, height, full: [width, height]}` (`width`, `height`: the rectangle's; `full`: the
 * canvas picture's). Self-contained: its source is evaluated in pages and init scripts.
 */
export async function readCanvas(c, rect = [0, 0, 1, 1]) {
  const bmp = await createImageBitmap(c);
  const full = [bmp.width, bmp.height];
  const t = new OffscreenCanvas(bmp.width, bmp.height);
  const ctx = t.getContext("2d");
  ctx.drawImage(bmp, 0, 0);
  bmp.close();
  const x0 = Math.floor(rect[0] * full[0]), y0 = Math.floor(rect[1] * full[1]);
  const width = Math.max(1, Math.floor((rect[2] - rect[0]) * full[0])), height = Math.max(1, Math.floor((rect[3] - rect[1]) * full[1]));
  return { data: ctx.getImageData(x0, y0, width, height).data, width, height, full };
}

/**
 * Reads the pixels of the canvas at `selector` in `target` (a page or frame) with `readCanvas`
 * and returns `fn(pixels, arg)` as computed in the page (only the result crosses to node).
 * `fn` must be self-contained browser code: its source is sent, not its closure; `arg` must be
 * JSON.
 */
export async function withPixels(target, selector, fn, arg = null, rect = [0, 0, 1, 1]) {
  // a string expression: playwright cannot pass functions as arguments, and page-side
  // `new Function` would be subject to the page's CSP
  return target.evaluate(`(${readCanvas})(document.querySelector(${JSON.stringify(selector)}), ${JSON.stringify(rect)})
    .then((px) => (${fn})(px, ${JSON.stringify(arg)}))`);
}

/**
 * Counts the pixels of a canvas in the page close to `rgb` inside the rectangle given as fractions
 * of the canvas (default: the whole canvas).
 */
export async function countColour(page, selector, rgb, tol = 40, rect = [0, 0, 1, 1]) {
  return withPixels(page, selector, ({ data: d }, { rgb, tol }) => {
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i + 3] > 0 && Math.abs(d[i] - rgb[0]) <= tol && Math.abs(d[i + 1] - rgb[1]) <= tol && Math.abs(d[i + 2] - rgb[2]) <= tol) n++;
    }
    return n;
  }, { rgb, tol }, rect);
}

/** Number of distinct colours (quantised) on a canvas: a blank or uniform canvas gives 1. */
export async function distinctColours(page, selector) {
  return withPixels(page, selector, ({ data: d }) => {
    const seen = new Set();
    for (let i = 0; i < d.length; i += 16) seen.add(((d[i] >> 4) << 12) | ((d[i + 1] >> 4) << 8) | ((d[i + 2] >> 4) << 4) | (d[i + 3] >> 4));
    return seen.size;
  });
}

/** Number of pixels of a canvas with any ink (alpha > 0). */
export async function inkedPixels(page, selector) {
  return withPixels(page, selector, ({ data: d }) => {
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  });
}

/** A cheap fingerprint of a canvas' pixels (FNV-1a over every 7th byte). */
export async function pixelHash(page, selector) {
  return withPixels(page, selector, ({ data: d }) => {
    let h = 2166136261;
    for (let i = 0; i < d.length; i += 7) h = Math.imul(h ^ d[i], 16777619);
    return h >>> 0;
  });
}
