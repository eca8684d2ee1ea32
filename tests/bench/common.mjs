// Shared by bench.mjs and profile.mjs: a static server over a directory, and
// the scripted slider steps both measure.
import fs from "node:fs";
import path from "node:path";
import http from "node:http";
import zlib from "node:zlib";

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png" };

/** What GitHub Pages sends compressed: text, and wasm. */
const COMPRESSED = new Set([".html", ".js", ".wasm", ".css", ".svg"]);

/**
 * Serves `dir` at the root of 127.0.0.1 on a free port: `{ url, close }`.
 * Compressed with gzip where the browser asks for it, as GitHub Pages serves
 * the site: a slow link then carries what a visitor's does, not the raw bytes.
 */
export function serveDir(dir) {
  const gzipped = new Map();
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, "http://x").pathname).replace(/^\/+/, "") || "index.html";
    let file = path.join(dir, path.normalize(rel));
    // A folder serves its index.html, as GitHub Pages does.
    if (file.startsWith(dir) && fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, "index.html");
    if (!file.startsWith(dir) || !fs.existsSync(file)) return res.writeHead(404).end();
    const headers = { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" };
    if (COMPRESSED.has(path.extname(file)) && /\bgzip\b/.test(req.headers["accept-encoding"] ?? "")) {
      if (!gzipped.has(file)) gzipped.set(file, zlib.gzipSync(fs.readFileSync(file)));
      res.writeHead(200, { ...headers, "content-encoding": "gzip" }).end(gzipped.get(file));
      return;
    }
    res.writeHead(200, headers);
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((r) => server.listen(0, "127.0.0.1", () => r({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() })));
}

/** The `p`th percentile of `xs` (the nearest rank at or above). */
export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
export const median = (xs) => pct(xs, 50);

/**
 * Where users meet the page: a desktop window, and a phone as Chromium's own
 * developer tools emulate a mid-tier one (390 × 844 at a pixel ratio of 3, the
 * CPU 4× slower).
 */
export const DESKTOP = { name: "desktop", context: { viewport: { width: 1360, height: 1000 } }, cpu: 1 };
export const PHONE = { name: "phone", context: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true }, cpu: 4 };

/** A new context and page of `browser` in `profile`: `{ context, page }`. */
export async function openPage(browser, profile) {
  const context = await browser.newContext(profile.context);
  const page = await context.newPage();
  if (profile.cpu > 1) {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: profile.cpu });
  }
  return { context, page };
}

/**
 * Makes every document `page` loads report when the browser paints its element
 * marked elementtiming="first-result" (Element Timing: its render time), through
 * the console: waiting with Playwright's waitForFunction injects its script
 * (45–48 ms of main thread in a traced load) while the app is still loading,
 * ahead of the app's first frame.
 */
export async function reportFirstResult(page) {
  await page.addInitScript(() => {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.identifier === "first-result") console.debug(`first-result ${e.renderTime || e.loadTime}`);
    }).observe({ type: "element", buffered: true });
  });
}

/** The next first-result time `page` reports (see `reportFirstResult`). */
export function nextFirstResult(page) {
  return new Promise((resolve) => {
    const on = (m) => {
      if (!m.text().startsWith("first-result ")) return;
      page.off("console", on);
      resolve(Number(m.text().slice(13)));
    };
    page.on("console", on);
  });
}

/**
 * Navigation → the first result painted (`reportFirstResult`), in a fresh
 * context: `{ shown, out }`, `out` what `wrap` (given the load and the page)
 * returns.
 */
export async function firstResult(browser, url, wrap = (load) => load(), profile = DESKTOP) {
  const { context, page } = await openPage(browser, profile);
  await reportFirstResult(page);
  const reported = Promise.race([
    nextFirstResult(page),
    // Element Timing counts text for its nearest block: a mark on an inline element never reports.
    new Promise((_, reject) => setTimeout(() => reject(new Error(`${url}: no Element Timing entry "first-result" in 20 s`)), 20000).unref()),
  ]);
  const out = await wrap(async () => {
    await page.goto(url, { waitUntil: "commit" });
    await reported;
  }, page);
  const shown = await reported;
  await context.close();
  return { shown, out };
}

/**
 * Opens `url` in a fresh context of `profile`, waits for the parameters slider
 * and 300 ms more, and returns what `measure(page)` gives.
 */
export async function onSlider(browser, url, profile, measure) {
  const { context, page } = await openPage(browser, profile);
  await page.goto(url);
  await page.waitForSelector('input[type="range"][data-key="params"]');
  await page.waitForTimeout(300);
  const out = await measure(page);
  await context.close();
  return out;
}

/**
 * Moves the parameters slider `steps` times in the page, one move per frame.
 * Per step: `work`, from the input to the next task (the reactive updates, the
 * canvas and, because the step starts in an animation frame, that frame's
 * style, layout and paint), and `frame`, to the task after the next frame.
 * Also the long tasks meanwhile.
 *
 * By default a narrow back-and-forth (positions 300–795 of 1000). With
 * `whole`, a drag across the slider's whole range and back, as a finger does:
 * it crosses model shapes (the layer count and the width change, and with them
 * the t and p menus' choices), and long tasks count from the second move (the
 * first may build what the page had left for later).
 */
export function sliderSteps(page, steps, whole = false) {
  return page.evaluate(
    async ([steps, whole]) => {
      const longTasks = [];
      let counting = !whole;
      new PerformanceObserver((l) => counting && longTasks.push(...l.getEntries().map((e) => e.duration))).observe({ type: "longtask", buffered: false });
      const slider = document.querySelector('input[type="range"][data-key="params"]');
      const [lo, hi] = [Number(slider.min), Number(slider.max)];
      const half = Math.ceil(steps / 2);
      const at = (i) => (whole ? lo + (i < half ? i / (half - 1) : 1 - (i - half + 1) / (steps - half)) * (hi - lo) : 300 + (i % 100) * 5);
      const work = [];
      const frame = [];
      for (let i = 0; i < steps; i++) {
        // Start at a frame boundary so the frame figure is not the wait for vsync.
        await new Promise((r) => requestAnimationFrame(r));
        const t0 = performance.now();
        slider.value = String(at(i));
        slider.dispatchEvent(new Event("input", { bubbles: true }));
        await new Promise((r) => setTimeout(r, 0));
        work.push(performance.now() - t0);
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        frame.push(performance.now() - t0);
        if (i === 0 && !counting) {
          await new Promise((r) => setTimeout(r, 50));
          counting = true;
        }
      }
      await new Promise((r) => setTimeout(r, 100));
      return { work, frame, longTasks };
    },
    [steps, whole],
  );
}

/**
 * Runs `fn` while Chromium traces the page, and returns `fn`'s result with the
 * renderer main thread's complete trace events.
 */
export async function traced(page, fn) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on("Tracing.dataCollected", (e) => events.push(...e.value));
  const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
  await cdp.send("Tracing.start", {
    categories: "devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing,v8.execute,v8.wasm",
    transferMode: "ReportEvents",
  });
  const result = await fn();
  await cdp.send("Tracing.end");
  await done;
  await cdp.detach();
  const main = events.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain");
  const onMain = events.filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === "X" && e.dur);
  // The page's time origin on the trace clock (µs), for `performance.now()` figures.
  const nav = events.filter((e) => e.name === "navigationStart" && e.args?.data?.isLoadingMainFrame && /^http/.test(e.args.data.documentLoaderURL ?? ""));
  return { result, events: onMain, origin: nav.at(-1)?.ts };
}

/** What each trace event's own time (its children's taken out) counts as. */
const STAGE = [
  ["style", /^(UpdateLayoutTree|RecalculateStyles)$/],
  ["layout", /^(Layout|UpdateLayer)$/],
  ["pre-paint", /^PrePaint$/],
  ["paint", /^Paint/],
  ["layerize", /^Layerize$/],
  ["commit", /^Commit$/],
  ["wasm compile", /^(v8\.wasm|wasm\.)/],
  ["html and css parse", /^(ParseHTML|ParseAuthorStyleSheet)$/],
  ["script", /^(FunctionCall|EvaluateScript|EventDispatch|FireAnimationFrame|TimerFire|RunMicrotasks|v8\.|V8\.|MinorGC|MajorGC|ResizeObserver|IntersectionObserver)/],
];

/**
 * Main-thread self time per stage (script, style, layout, pre-paint, paint,
 * layerize, commit, other) in ms, from `traced` events: nested events are
 * counted once, in the innermost stage (a layout forced by script is layout);
 * "other" is what no stage names, the task scheduler's own time included.
 */
export function stages(events) {
  const sorted = [...events].sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const self = new Map(sorted.map((e) => [e, e.dur]));
  const open = [];
  for (const e of sorted) {
    while (open.length && open[open.length - 1].ts + open[open.length - 1].dur <= e.ts) open.pop();
    if (open.length) self.set(open[open.length - 1], self.get(open[open.length - 1]) - e.dur);
    open.push(e);
  }
  const out = new Map([...STAGE.map(([s]) => [s, 0]), ["other", 0]]);
  for (const [e, us] of self) {
    const stage = STAGE.find(([, re]) => re.test(e.name))?.[0] ?? "other";
    out.set(stage, out.get(stage) + us / 1000);
  }
  return out;
}
