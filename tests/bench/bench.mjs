// The performance benchmark (not a test: it prints figures and writes
// docs/benchmarks.md). Run by scripts/bench.sh after the release builds.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { launch, ROOT } from "../e2e/harness.mjs";
import { DESKTOP, PHONE, firstResult, onSlider, serveDir, sliderSteps, stages, traced } from "./common.mjs";

const APP = path.join(ROOT, "dist");
const BLANK = path.join(ROOT, "target/blank-dist");
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const median = (xs) => pct(xs, 50);

// 1. Sizes: every file of dist/ (gzip -9), and the files the page actually loads.
const files = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(path.join(dir, d.name)) : [path.join(dir, d.name)]));
const sizes = files(APP).sort().map((f) => {
  const raw = fs.readFileSync(f);
  return { file: path.relative(APP, f), raw: raw.length, gz: zlib.gzipSync(raw, { level: 9 }).length };
});

const browser = await launch();
const app = await serveDir(APP);
const blank = await serveDir(BLANK);

// 2. Navigation → first result on screen: when the browser paints the element
// marked elementtiming="first-result" (Element Timing: its render time), for the
// app (the summary line's memory per GPU, painted before the panels) and
// for a blank Leptos page (one line): the floor (`firstResult` in common.mjs).
async function firstPaint(url, runs = 15, profile = DESKTOP) {
  const times = [];
  for (let i = 0; i < runs; i++) times.push((await firstResult(browser, url, undefined, profile)).shown);
  return median(times);
}
// One visit of the app: what it fetches (the browser's own list, counted
// gzipped), and its rendered page saved as plain HTML with its CSS (no
// JavaScript, no wasm): the content floor, what the page's own size costs to
// lay out and paint, whatever builds it.
const STATIC = path.join(ROOT, "target/static-copy");
const fetched = new Set();
{
  const context = await browser.newContext({ viewport: { width: 1360, height: 1000 } });
  const page = await context.newPage();
  page.on("request", (r) => fetched.add(decodeURIComponent(new URL(r.url()).pathname).replace(/^\/+/, "") || "index.html"));
  await page.goto(app.url);
  await page.waitForSelector('[data-testid="per-gpu-total"]');
  await page.waitForTimeout(500);
  const bare = (html) =>
    html
      .replace(/<script[\s\S]*?<\/script>/g, "")
      .replace(/<link rel="(?:module)?preload"[^>]*>/g, "")
      .replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, "");
  const html = bare(await page.content());
  // What the app paints first (the header and the summary: the panels mount
  // after that frame), as HTML: the content floor of the first result.
  const firstHtml = bare(
    await page.evaluate(() => {
      const doc = document.documentElement.cloneNode(true);
      doc.querySelector(".panels")?.replaceChildren();
      return `<!doctype html>${doc.outerHTML}`;
    }),
  );
  await context.close();
  fs.rmSync(STATIC, { recursive: true, force: true });
  fs.mkdirSync(STATIC, { recursive: true });
  fs.writeFileSync(path.join(STATIC, "index.html"), html);
  fs.writeFileSync(path.join(STATIC, "first.html"), firstHtml);
  // The content floor of a slider move: the same page, where a move changes
  // one text (the summary's amount) and the slider's own value, and nothing
  // else. What it costs is what this page's content costs the browser to
  // restyle, lay out, paint and composite on a move, whatever updates it.
  const oneText = `<script>
    const s = document.querySelector('input[type="range"][data-key="params"]');
    const a = document.querySelector('[data-testid="summary"] .amount');
    s.addEventListener("input", () => { a.textContent = (s.value / 10).toFixed(1) + " GB"; s.setAttribute("aria-valuetext", s.value); });
  </script>`;
  fs.writeFileSync(path.join(STATIC, "steps.html"), html.replace("</body>", `${oneText}</body>`));
  for (const s of sizes.filter((s) => s.file.endsWith(".css"))) fs.copyFileSync(path.join(APP, s.file), path.join(STATIC, s.file));
}
const loaded = sizes.filter((s) => fetched.has(s.file));
const transfer = loaded.reduce((a, s) => a + s.gz, 0);
const appFirst = await firstPaint(app.url);
const blankFirst = await firstPaint(blank.url);

// 2b. Where the app's time to first result goes: one traced load, the main
// thread's work up to the frame that shows the result.
const { shown: loadShown, out: loadTrace } = await firstResult(browser, app.url, (load, page) => traced(page, load));
const loadStages = stages(
  loadTrace.events.filter((e) => e.ts >= loadTrace.origin && e.ts + e.dur <= loadTrace.origin + loadShown * 1000),
);
const staticCopy = await serveDir(STATIC);
const staticFirst = await firstPaint(staticCopy.url);
const contentFirst = { desktop: await firstPaint(`${staticCopy.url}first.html`) };
const contentSteps = `${staticCopy.url}steps.html`;

// 2c. A slow link (1.6 Mbps, 150 ms): first contentful paint (the HTML's own
// skeleton, before the wasm arrives) and the first result, median of 3.
async function slowLink(url) {
  const fcp = [];
  const result = [];
  for (let i = 0; i < 3; i++) {
    const context = await browser.newContext({ viewport: { width: 1360, height: 1000 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 150, downloadThroughput: 200_000, uploadThroughput: 96_000 });
    await page.addInitScript(() => {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (e.identifier === "first-result") console.debug(`first-result ${e.renderTime || e.loadTime}`);
      }).observe({ type: "element", buffered: true });
    });
    const shown = new Promise((resolve) => page.on("console", (m) => m.text().startsWith("first-result ") && resolve(Number(m.text().slice(13)))));
    await page.goto(url, { waitUntil: "commit" });
    result.push(await shown);
    fcp.push(await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN));
    await context.close();
  }
  return { fcp: median(fcp), result: median(result) };
}
const slow = await slowLink(app.url);
const slowBlank = await slowLink(blank.url);

// 3. Slider moves, on the desktop and on the phone, for the app and for the
// blank page with one slider bound to one text (the floor), built the same way
// and measured in the same run: 3 runs of 100 moves each, the median of the
// runs' percentiles. Input → next task is the work a move causes; input → next
// frame is what the eye sees.
async function sliderRuns(url, profile, runs = 3, steps = 100) {
  const out = [];
  for (let i = 0; i < runs; i++) {
    out.push(await onSlider(browser, url, profile, (page) => sliderSteps(page, steps)));
  }
  const of = (key, p) => median(out.map((r) => pct(r[key], p)));
  return { taskP95: of("work", 95), frameP50: of("frame", 50), frameP95: of("frame", 95), longTasks: out.reduce((a, r) => a + r.longTasks.length, 0) };
}
const moves = {};
for (const profile of [DESKTOP, PHONE]) {
  moves[profile.name] = {
    app: await sliderRuns(app.url, profile),
    blank: await sliderRuns(blank.url, profile),
    content: await sliderRuns(contentSteps, profile),
  };
}
const phoneFirst = await firstPaint(app.url, 7, PHONE);
const phoneBlankFirst = await firstPaint(blank.url, 7, PHONE);
contentFirst.phone = await firstPaint(`${staticCopy.url}first.html`, 7, PHONE);
// 3b. Where a step's main-thread time goes: separate, traced runs of the app
// and of its content floor, on both profiles (tracing slows the page, so these
// figures explain the ones above, not replace them).
const TRACED_STEPS = 50;
async function tracedSteps(url, profile) {
  return onSlider(browser, url, profile, async (page) => stages((await traced(page, () => sliderSteps(page, TRACED_STEPS))).events));
}
const stepStages = {};
for (const profile of [DESKTOP, PHONE]) {
  stepStages[profile.name] = { app: await tracedSteps(app.url, profile), content: await tracedSteps(contentSteps, profile) };
}
staticCopy.close();
// 4. The planner in wasm: the same code built with its timing export
// (`--features bench`), which the shipped site leaves out.
const benchBuild = await serveDir(path.join(ROOT, "target/bench-dist"));
const plannerPage = await (await browser.newContext()).newPage();
await plannerPage.goto(benchBuild.url);
await plannerPage.waitForSelector('[data-testid="per-gpu-total"]');
const planner405 = await plannerPage.evaluate(() => window.wasmBindings.bench_planner("llama-3-405b", 20));
const planner70 = await plannerPage.evaluate(() => window.wasmBindings.bench_planner("llama-2-70b", 20));
await browser.close();
app.close();
blank.close();
benchBuild.close();

const native = process.env.NATIVE_BENCH ?? "";
const kib = (b) => (b / 1024).toFixed(1);
const lines = [
  "# Benchmarks",
  "",
  `Measured by \`./scripts/bench.sh\` on ${new Date().toISOString().slice(0, 10)}, headless Chromium, 127.0.0.1 (files sent gzipped, as GitHub Pages sends them), ${process.env.MACHINE ?? "this machine"}; wasm built with ${process.env.WASM_TOOLCHAIN ?? "?"}.`,
  "",
  "| figure | measured | budget |",
  "|---|---|---|",
  `| page transfer, gzipped (every file one visit fetches: ${loaded.length}) | ${kib(transfer)} KiB | ≤ 230 KiB |`,
  `| desktop: navigation → first result painted (Element Timing, median of 15) | ${appFirst.toFixed(0)} ms; floor (blank Leptos page) ${blankFirst.toFixed(0)} ms: **${(appFirst / blankFirst).toFixed(2)}×** | ≤ 1.5× |`,
  `| phone: navigation → first result painted (median of 7) | ${phoneFirst.toFixed(0)} ms; floor ${phoneBlankFirst.toFixed(0)} ms: **${(phoneFirst / phoneBlankFirst).toFixed(2)}×** | ≤ 1.5× |`,
  ...["desktop", "phone"].flatMap((p) => {
    const { app: a, blank: b, content: c } = moves[p];
    // The ratio to the budget's floor, then to the page's own content.
    const vs = (k) => `${a[k].toFixed(1)} ms; floor ${b[k].toFixed(1)} ms: **${(a[k] / b[k]).toFixed(2)}×**; content floor ${c[k].toFixed(1)} ms: ${(a[k] / c[k]).toFixed(2)}×`;
    return [
      `| ${p}: slider input → next task, p95 (3 × 100 moves) | ${vs("taskP95")} | ≤ 2× |`,
      `| ${p}: slider input → next frame, p50 | ${vs("frameP50")} | |`,
      `| ${p}: slider input → next frame, p95 | ${vs("frameP95")} | ≤ 1.25× |`,
      `| ${p}: long tasks (> 50 ms) during the 300 moves | ${a.longTasks} (floor ${b.longTasks}) | 0 |`,
    ];
  }),
  `| content floor of the first result: what the app paints first (header and summary) saved as HTML + CSS, no JS or wasm; desktop, median of 15 | ${contentFirst.desktop.toFixed(0)} ms (ratio to the blank page ${(contentFirst.desktop / blankFirst).toFixed(2)}; the app ${(appFirst / contentFirst.desktop).toFixed(2)}× it) | |`,
  `| the same, phone, median of 7 | ${contentFirst.phone.toFixed(0)} ms (ratio to the blank page ${(contentFirst.phone / phoneBlankFirst).toFixed(2)}; the app ${(phoneFirst / contentFirst.phone).toFixed(2)}× it) | |`,
  `| the whole page saved as static HTML + CSS: first result painted (desktop, median of 15) | ${staticFirst.toFixed(0)} ms (ratio to the blank page ${(staticFirst / blankFirst).toFixed(2)}) | |`,
  `| 1.6 Mbps link: first contentful paint (the HTML's skeleton), median of 3 | ${slow.fcp.toFixed(0)} ms (blank Leptos page: ${slowBlank.fcp.toFixed(0)} ms) | |`,
  `| 1.6 Mbps link: first result painted, median of 3 | ${slow.result.toFixed(0)} ms (blank Leptos page: ${slowBlank.result.toFixed(0)} ms, ratio ${(slow.result / slowBlank.result).toFixed(2)}) | |`,
  `| planner in wasm, Llama 3 405B (min GPUs ≤ 16384 + layouts on 16384) | ${planner405.toFixed(2)} ms | |`,
  `| planner in wasm, Llama 2 70B (same search) | ${planner70.toFixed(2)} ms | |`,
  ...native
    .split("\n")
    .filter(Boolean)
    .map((l) => {
      const [what, ...rest] = l.split(":");
      const budget = /ns per full evaluation/.test(l) ? "< 1 µs per evaluation" : "—";
      return `| native ${what} | ${rest.join(":").trim()} | ${budget} |`;
    }),
  "",
  "## Where the time goes (main thread, traced runs)",
  "",
  "Tracing slows the page: these runs explain the figures above and are not part of them. Self time per stage; a layout that script forces counts as layout. A slider step, in ms (mean of " + TRACED_STEPS + " moves), for the app and for its content floor (the same page saved as HTML and CSS, where a move changes one text): what the app adds is the difference.",
  "",
  `| stage | desktop step: app | desktop step: content floor | phone step: app | phone step: content floor | load until the first result (ms, desktop, one load shown at ${loadShown.toFixed(0)} ms) |`,
  "|---|---|---|---|---|---|",
  ...[...loadStages.keys(), "main thread busy"].map((k) => {
    const at = (m) => (k === "main thread busy" ? [...m.values()].reduce((a, b) => a + b, 0) : m.get(k));
    const step = (m) => (at(m) / TRACED_STEPS).toFixed(2);
    const { desktop: d, phone: ph } = stepStages;
    return `| ${k} | ${step(d.app)} | ${step(d.content)} | ${step(ph.app)} | ${step(ph.content)} | ${at(loadStages).toFixed(0)} |`;
  }),
  "",
  "## dist/ (gzip -9)",
  "",
  "| file | bytes | gzipped |",
  "|---|---|---|",
  ...sizes.map((s) => `| ${s.file.replace(/-[0-9a-f]{16}/, "")} | ${s.raw} | ${kib(s.gz)} KiB |`),
  "",
];
fs.writeFileSync(path.join(ROOT, "docs/benchmarks.md"), lines.join("\n"));
console.log(lines.join("\n"));
