// Shared by the browser tests: a static server on 127.0.0.1 over dist/, headless
// Debian Chromium through playwright-core, and the native `tmath` for expected numbers.
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { before, after } from "node:test";
import { chromium } from "playwright-core";

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
export const DIST = path.join(ROOT, "dist");
export const ARTIFACTS = path.join(ROOT, "tests/e2e/artifacts");

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".wasm": "application/wasm",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
};

/** Serves dist/ under `prefix` (a sub-path, as GitHub Pages does), and the
 * pages a test adds to `pages` (path → HTML), such as another site's host page. */
export function serve(prefix = "/tmath/") {
  const pages = new Map();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    if (pages.has(url.pathname)) {
      res.writeHead(200, { "content-type": TYPES[".html"] }).end(pages.get(url.pathname));
      return;
    }
    if (!url.pathname.startsWith(prefix)) {
      res.writeHead(404).end();
      return;
    }
    let rel = decodeURIComponent(url.pathname.slice(prefix.length)) || "index.html";
    const file = path.join(DIST, path.normalize(rel));
    if (!file.startsWith(DIST) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    // GitHub Pages lets any origin read its files: another site's page may load embed.js.
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream", "access-control-allow-origin": "*" });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({ base: `http://127.0.0.1:${port}${prefix}`, origin: `http://127.0.0.1:${port}`, port, pages, close: () => server.close() });
    }),
  );
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/** One server and one browser for a test file: `env.server`, `env.browser`. */
export function startBrowser() {
  const env = {};
  before(async () => {
    env.server = await serve();
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    env.server?.close();
  });
  return env;
}

/** A page that records console errors, page errors, failed and foreign requests. */
export async function open(browser, url, { origin, viewport = { width: 1360, height: 1000 }, scale = 1, ready = '[data-testid="per-gpu-total"]', ...opts } = {}) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: scale, ...opts });
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  // ERR_ABORTED is a request cancelled by the next navigation, not a failure.
  page.on("requestfailed", (r) => r.failure()?.errorText !== "net::ERR_ABORTED" && problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on("response", (r) => r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`));
  page.on("request", (r) => origin && !r.url().startsWith(origin) && !r.url().startsWith("data:") && problems.push(`foreign: ${r.url()}`));
  await page.goto(url);
  await page.waitForSelector(ready, { timeout: 20000, state: "attached" });
  return { page, context, problems };
}

/** The core's JSON for URL-style pairs, from the native command line. */
export function tmathJson(pairs) {
  const bin = path.join(ROOT, "target/debug/tmath");
  const args = pairs.map(([k, v]) => `--${k}=${v}`).concat("--json");
  const out = spawnSync(bin, args, { encoding: "utf8", maxBuffer: 1 << 28 });
  if (out.status !== 0) throw new Error(`tmath ${args.join(" ")}: ${out.stderr}`);
  return JSON.parse(out.stdout);
}

/** `tmath plan --json` for URL-style pairs (the current N). */
export function tmathPlan(pairs) {
  const bin = path.join(ROOT, "target/debug/tmath");
  const args = ["plan", ...pairs.map(([k, v]) => `--${k}=${v}`), "--json"];
  const out = spawnSync(bin, args, { encoding: "utf8", maxBuffer: 1 << 28 });
  if (out.status !== 0) throw new Error(`tmath ${args.join(" ")}: ${out.stderr}`);
  return JSON.parse(out.stdout);
}

/** The views, in the order of the SPEC: the article's eight, then the project's own three. */
export const VIEWS = ["compute", "chinchilla", "inference", "model-states", "activations", "memory", "zero", "3d", "planner", "sweeps", "fp", "serving", "finetune"];
export const PROJECT_VIEWS = new Set(["planner", "sweeps", "fp", "serving", "finetune"]);

/** The memory chart's parts in the order of its segments' data-part, as the JSON's per_gpu_bytes names them. */
export const PART_KEYS = ["model", "gradients", "optimizer", "activations", "logits", "buffers", "zero3_live_params", "frozen_models", "rollout", "reserve"];

/** Per-GPU bytes as the page shows them. */
export async function domBytes(page) {
  return page.evaluate(() => {
    const b = (id) => Number(document.querySelector(`[data-testid="${id}"]`).dataset.bytes);
    return {
      model: b("part-model"),
      gradients: b("part-gradients"),
      optimizer: b("part-optimizer"),
      activations: b("part-activations"),
      zero3_live_params: b("part-zero3-live-params"),
      total: b("per-gpu-total"),
      capacity: b("gpu-capacity"),
      fits: document.querySelector('[data-testid="fits"]').dataset.fits === "true",
      flops: Number(document.querySelector('[data-testid="flops"]').dataset.flops),
      chinchilla: Number(document.querySelector('[data-testid="chinchilla"]').dataset.tokens),
      days: Number(document.querySelector('[data-testid="days"]').dataset.days),
      cost: Number(document.querySelector('[data-testid="cost"]').dataset.value),
    };
  });
}

/** Waits until the address bar's query satisfies `pred` (it is written once input settles). */
export async function waitForQuery(page, pred, timeout = 3000) {
  const start = Date.now();
  for (;;) {
    const q = new URL(page.url()).searchParams;
    if (pred(q)) return q;
    if (Date.now() - start > timeout) throw new Error(`query never matched: ${page.url()}`);
    await page.waitForTimeout(50);
  }
}

export function ensureArtifacts() {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return ARTIFACTS;
}

/** The bars of the SVG chart `testid` in `scope` (a page, or one figure's element), left to right: each an object {part index: bytes} read from its segments' data-bytes. */
export async function chartBars(scope, testid) {
  return scope.$eval(`[data-testid="${testid}"]`, (svg) => {
    const bars = new Map();
    for (const r of svg.querySelectorAll("rect[data-bytes]")) {
      const x = Number(r.getAttribute("x"));
      if (!bars.has(x)) bars.set(x, {});
      bars.get(x)[r.getAttribute("data-part")] = Number(r.getAttribute("data-bytes"));
    }
    return [...bars.entries()].sort((a, b) => a[0] - b[0]).map(([, parts]) => parts);
  });
}
