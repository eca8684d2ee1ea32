// Where an article's reader meets the figures (issue 28): the host page with
// every frame loading at once, and a drag of P across its whole range. Shared
// by bench.mjs; run alone it measures builds interleaved (not a test):
//
//   node tests/bench/article.mjs <dist> [<dist> …]    LOADS=5, DRAGS=3, DESKTOP=1
//
// each against the same page whose frames hold the blank Leptos page
// (target/blank-dist), and the full-range drag against the blank slider page.
import fs from "node:fs";
import path from "node:path";
import { openPage } from "./common.mjs";

/** What shows a frame is drawn: a figure's title (it mounts with the body and
 * the chart), or the blank page's line. */
export const MARK = ".figure-title, [elementtiming=first-result]";

/**
 * A folder that serves `appDir` with two article pages beside it:
 * `article.html`, the shipped `figures.html` with every frame loading at once
 * (no `loading="lazy"`: as when a reader jumps down the article, or a phone
 * whose screen is near every frame), and `article-blank.html`, the same page
 * whose frames hold the blank Leptos page (`blank/`) at the same sizes: the floor;
 * and `article-module.html`, the site's figures-module.html (the same article
 * served by one module, embed.js) with every figure mounting at once.
 */
export function articleSite(appDir, blankDir, outDir) {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.cpSync(appDir, outDir, { recursive: true });
  fs.cpSync(blankDir, path.join(outDir, "blank"), { recursive: true });
  const host = fs.readFileSync(path.join(appDir, "figures.html"), "utf8").replace(/ loading="lazy"/g, "");
  const frames = (host.match(/<iframe /g) ?? []).length;
  if (frames < 2) throw new Error(`figures.html: ${frames} frames`);
  fs.writeFileSync(path.join(outDir, "article.html"), host);
  fs.writeFileSync(path.join(outDir, "article-blank.html"), host.replace(/<iframe src="\.\/\?/g, '<iframe src="./blank/?'));
  // The same article served by one module (embed.js), every figure mounting at once.
  const module = fs.readFileSync(path.join(appDir, "figures-module.html"), "utf8").replace(/ data-loading="lazy"/g, "");
  fs.writeFileSync(path.join(outDir, "article-module.html"), module);
  return { frames, app: "article.html", blank: "article-blank.html", module: "article-module.html" };
}

/**
 * Loads an article page in a fresh context of `profile` (cold: no HTTP or code
 * cache) and waits until every one of its `frames` has shown its mark (a
 * figure's title, which mounts with its body and chart; the blank page's
 * line): the first task after the rendering that follows the mark's arrival
 * in the frame's document. Returns `{ ready, each,
 * longMs, long }`: when the last frame showed (ms from the host's navigation),
 * when the frames on the first screen showed (`firstScreen`: what the reader
 * waits for), each frame's time, and the main thread's long tasks (> 50 ms) from the
 * navigation until the last frame showed: their summed duration and count.
 * The frames share the host's main thread (same origin), so a long task in
 * any of them is a stall of the reader's scrolling.
 */
export async function articleLoad(browser, url, frames, profile) {
  const { context, page } = await openPage(browser, profile);
  await page.addInitScript((mark) => {
    // A frame is ready at the first task after the rendering that follows its
    // mark's arrival in the document. (Element Timing reports only what is
    // painted, and Chromium leaves unpainted what lies far below the screen:
    // on the desktop profile, 5 of the 11 frames.) Which frame: the address
    // its element was given (the app rewrites its query once it runs, and this
    // script may run before the URL is set).
    const report = (w, src) =>
      w.requestAnimationFrame(() => w.setTimeout(() => console.debug(`first-result ${w.performance.timeOrigin + w.performance.now()} ${src}`)));
    // A figure a module mounted (embed.js) shows its mark in its own shadow root.
    const attach = Element.prototype.attachShadow;
    Element.prototype.attachShadow = function (init) {
      const root = attach.call(this, init);
      const host = this;
      if (host.dataset?.tmath === undefined) return root;
      const watch = new MutationObserver(() => {
        if (!root.querySelector(mark)) return;
        watch.disconnect();
        report(window, host.dataset.tmath);
      });
      watch.observe(root, { childList: true, subtree: true });
      return root;
    };
    if (window !== window.top) {
      const watch = new MutationObserver(() => {
        if (!document.querySelector(mark)) return;
        watch.disconnect();
        if (window.frameElement) window.frameElement.dataset.reported = "1";
        report(window, window.frameElement?.src ?? location.href);
      });
      watch.observe(document, { childList: true, subtree: true });
    } else {
      // Playwright's init script now and then misses a frame's document (it
      // runs in the frame's about:blank instead): every 100 ms the host looks
      // for marks in frames that have not reported, and reports them the same way.
      const fallback = setInterval(() => {
        const frames = [...document.querySelectorAll("iframe")];
        // A page of module figures (embed.js) has no frames to look in.
        if (document.querySelector("[data-tmath]")) return clearInterval(fallback);
        if (frames.length && frames.every((f) => f.dataset.reported)) return clearInterval(fallback);
        for (const f of frames) {
          if (f.dataset.reported || !f.contentWindow?.document.querySelector(mark)) continue;
          f.dataset.reported = "1";
          report(f.contentWindow, f.src);
        }
      }, 100);
      window.__long = [];
      // The top frame sees its same-origin frames' long tasks too (their attribution says whose).
      new PerformanceObserver((list) => window.__long.push(...list.getEntries().map((e) => [e.startTime, e.duration]))).observe({ type: "longtask", buffered: true });
    }
  }, MARK);
  const shown = new Map();
  const all = new Promise((resolve, reject) => {
    page.on("console", (m) => {
      const [tag, at, href] = m.text().split(" ");
      if (tag !== "first-result" || shown.has(href)) return;
      shown.set(href, Number(at));
      if (shown.size === frames) resolve();
    });
    setTimeout(() => reject(new Error(`${url}: ${shown.size} of ${frames} frames showed in 60 s: ${[...shown.keys()].join(" ")}`)), 60000).unref();
  });
  await page.goto(url, { waitUntil: "commit" });
  await all;
  const { origin, long, inView } = await page.evaluate(() => ({
    origin: performance.timeOrigin,
    long: window.__long,
    // The frames on the reader's first screen (the page is not scrolled).
    inView: [
      ...[...document.querySelectorAll("iframe")].filter((f) => f.getBoundingClientRect().top < innerHeight).map((f) => f.src),
      ...[...document.querySelectorAll("[data-tmath]")].filter((h) => h.getBoundingClientRect().top < innerHeight).map((h) => h.dataset.tmath),
    ],
  }));
  await context.close();
  const each = [...shown.values()].map((t) => t - origin).sort((a, b) => a - b);
  const ready = each.at(-1);
  const firstScreen = Math.max(...inView.map((href) => shown.get(href) - origin));
  const counted = long.filter(([start]) => start < ready);
  return { ready, firstScreen, each, longMs: counted.reduce((a, [, d]) => a + d, 0), long: counted.length };
}

// Run alone: builds measured interleaved on the phone profile (or DESKTOP=1).
if (import.meta.url === `file://${process.argv[1]}`) {
  const { launch, ROOT } = await import("../e2e/harness.mjs");
  const { DESKTOP, PHONE, median, onSlider, pct, serveDir, sliderSteps } = await import("./common.mjs");
  const dirs = process.argv.slice(2).map((d) => path.resolve(d));
  if (!dirs.length) dirs.push(path.join(ROOT, "dist"));
  const profile = process.env.DESKTOP ? DESKTOP : PHONE;
  const loads = Number(process.env.LOADS ?? 5);
  const drags = Number(process.env.DRAGS ?? 3);
  const blankDir = path.join(ROOT, "target/blank-dist");
  const sites = [];
  for (const [i, d] of dirs.entries()) {
    const out = path.join(ROOT, `target/article-site-${i}`);
    const site = articleSite(d, blankDir, out);
    sites.push({ dir: d, ...site, server: await serveDir(out) });
  }
  const blankServer = await serveDir(blankDir);
  const browser = await launch();
  const p95 = (xs) => pct(xs, 95);
  const res = sites.map(() => ({ app: [], module: [], blank: [], drag: [] }));
  const blankDrag = [];
  for (let k = 0; k < loads; k++) {
    for (const [i, s] of sites.entries()) {
      res[i].app.push(await articleLoad(browser, s.server.url + s.app, s.frames, profile));
      res[i].module.push(await articleLoad(browser, s.server.url + s.module, s.frames, profile));
      res[i].blank.push(await articleLoad(browser, s.server.url + s.blank, s.frames, profile));
    }
  }
  for (let k = 0; k < drags; k++) {
    for (const [i, s] of sites.entries()) res[i].drag.push(await onSlider(browser, s.server.url, profile, (p) => sliderSteps(p, 100, true)));
    blankDrag.push(await onSlider(browser, blankServer.url, profile, (p) => sliderSteps(p, 100, true)));
  }
  const bd = median(blankDrag.map((r) => p95(r.frame)));
  for (const [i, s] of sites.entries()) {
    const r = res[i];
    console.log(`${path.relative(ROOT, s.dir)} (${profile.name}, ${loads} loads, ${drags} drags)`);
    if (loads) {
      const a = median(r.app.map((x) => x.ready));
      const b = median(r.blank.map((x) => x.ready));
      const la = median(r.app.map((x) => x.longMs));
      const lb = median(r.blank.map((x) => x.longMs));
      console.log(`  every figure ready ${a.toFixed(0)} ms; blank frames ${b.toFixed(0)} ms: ${(a / b).toFixed(2)}×  (budget 1.5×)`);
      const fa = median(r.app.map((x) => x.firstScreen));
      const fb = median(r.blank.map((x) => x.firstScreen));
      console.log(`  the first screen's figures ready ${fa.toFixed(0)} ms; blank frames ${fb.toFixed(0)} ms: ${(fa / fb).toFixed(2)}×`);
      console.log(`  long tasks ${la.toFixed(0)} ms (${median(r.app.map((x) => x.long))}); blank frames ${lb.toFixed(0)} ms: budget ${(1.5 * lb + 50).toFixed(0)} ms`);
      const m = median(r.module.map((x) => x.ready));
      const fm = median(r.module.map((x) => x.firstScreen));
      const lm = median(r.module.map((x) => x.longMs));
      console.log(`  one module (embed.js): every figure ready ${m.toFixed(0)} ms: ${(m / b).toFixed(2)}× the blank frames; first screen ${fm.toFixed(0)} ms: ${(fm / fb).toFixed(2)}×; long tasks ${lm.toFixed(0)} ms (${median(r.module.map((x) => x.long))})`);
      for (const k of ["app", "module", "blank"]) console.log(`  each frame, ${k} (one load): ${r[k][Math.floor(loads / 2)].each.map((t) => t.toFixed(0)).join(" ")}`);
    }
    if (!drags) continue;
    const fd = median(r.drag.map((x) => p95(x.frame)));
    const wd = median(r.drag.map((x) => p95(x.work)));
    console.log(`  full-range drag: next frame p95 ${fd.toFixed(1)} ms; blank ${bd.toFixed(1)} ms: ${(fd / bd).toFixed(2)}× (budget 1.25×); next task p95 ${wd.toFixed(1)} ms; long tasks after the first move ${r.drag.map((x) => x.longTasks.length).join("/")} (${r.drag.flatMap((x) => x.longTasks).map((d) => d.toFixed(0)).join(" ")} ms)`);
  }
  await browser.close();
  for (const s of sites) s.server.close();
  blankServer.close();
}
