// Shared by bench.mjs and profile.mjs: a static server over a directory, and
// the scripted slider steps both measure.
import fs from "node:fs";
import path from "node:path";
import http from "node:http";

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png" };

/** Serves `dir` at the root of 127.0.0.1 on a free port: `{ url, close }`. */
export function serveDir(dir) {
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, "http://x").pathname).replace(/^\/+/, "") || "index.html";
    const file = path.join(dir, path.normalize(rel));
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((r) => server.listen(0, "127.0.0.1", () => r({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() })));
}

/**
 * Moves the parameters slider `steps` times in the page. Per step: `work`, from
 * the input to the next task (the reactive updates, the canvas and, because the
 * step starts in an animation frame, that frame's style, layout and paint), and
 * `frame`, to the task after the next frame. Also the long tasks meanwhile.
 */
export function sliderSteps(page, steps) {
  return page.evaluate(async (steps) => {
    const longTasks = [];
    new PerformanceObserver((l) => longTasks.push(...l.getEntries().map((e) => e.duration))).observe({ type: "longtask", buffered: false });
    const slider = document.querySelector('input[type="range"][data-key="params"]');
    const work = [];
    const frame = [];
    for (let i = 0; i < steps; i++) {
      // Start at a frame boundary so the frame figure is not the wait for vsync.
      await new Promise((r) => requestAnimationFrame(r));
      const t0 = performance.now();
      slider.value = String(300 + (i % 100) * 5);
      slider.dispatchEvent(new Event("input", { bubbles: true }));
      await new Promise((r) => setTimeout(r, 0));
      work.push(performance.now() - t0);
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      frame.push(performance.now() - t0);
    }
    await new Promise((r) => setTimeout(r, 100));
    return { work, frame, longTasks };
  }, steps);
}
