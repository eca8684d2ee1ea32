// Where the article's load goes (a diagnosis aid, not a benchmark): one traced
// load of the article page with every frame at once, on the phone profile
// (DESKTOP=1 for the desktop), for a build's frames, its module figures
// (embed.js) and the blank frames (ONLY=module to pick).
//
//   node tests/bench/article-trace.mjs [dist]
//
// Prints the main thread's self time by stage until the last frame showed,
// and the long tasks with what they spent their time on.
import path from "node:path";
import { launch, ROOT } from "../e2e/harness.mjs";
import { DESKTOP, PHONE, openPage, serveDir, stages, traced } from "./common.mjs";
import { MARK, articleSite } from "./article.mjs";

const dir = path.resolve(process.argv[2] ?? path.join(ROOT, "dist"));
const out = path.join(ROOT, "target/article-site-trace");
const site = articleSite(dir, path.join(ROOT, "target/blank-dist"), out);
const server = await serveDir(out);
const browser = await launch();
const device = process.env.DESKTOP ? DESKTOP : PHONE;

for (const which of (process.env.ONLY ?? "app,module,blank").split(",")) {
  // Traced from the context's blank page, so that the trace starts before the navigation.
  let ready;
  const { context, page } = await openPage(browser, device);
  // PROFILE=1: a sampling profile too (wasm names with scripts/profile.sh's build).
  const cdp = process.env.PROFILE && (await context.newCDPSession(page));
  if (cdp) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
  }
  const { events, origin } = await traced(page, async () => {
    await page.goto(server.url + site[which]);
    // Every frame's title or line in the document, then two frames for the paint.
    await page.waitForFunction(
      ([n, mark]) =>
        [...document.querySelectorAll("iframe")].filter((f) => f.contentDocument?.querySelector(mark)).length +
          [...document.querySelectorAll("[data-tmath]")].filter((h) => h.shadowRoot?.querySelector(mark)).length ===
        n,
      [site.frames, MARK],
      { timeout: 60000, polling: 50 },
    );
    ready = await page.evaluate(() => performance.now());
    await page.waitForTimeout(200);
  });
  const profile = cdp && (await cdp.send("Profiler.stop")).profile;
  await context.close();
  const until = origin + ready * 1000;
  const within = events.filter((e) => e.ts >= origin && e.ts + e.dur <= until);
  const byStage = stages(within);
  console.log(`\n${which}: every frame's mark in its document at ${ready.toFixed(0)} ms (traced; polling adds work)`);
  for (const [stage, ms] of byStage) console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${stage}`);
  const tasks = within.filter((e) => e.name === "RunTask" && e.dur > 50000);
  console.log(`  long tasks: ${tasks.length}, ${(tasks.reduce((a, e) => a + e.dur, 0) / 1000).toFixed(0)} ms`);
  for (const t of tasks.slice(0, 40)) {
    const inside = within.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur);
    const s = [...stages(inside)].filter(([, ms]) => ms >= 3).map(([k, ms]) => `${k} ${ms.toFixed(0)}`).join(", ");
    const names = new Map();
    for (const e of inside) names.set(e.name, (names.get(e.name) ?? 0) + e.dur / 1000);
    const top = [...names].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([n, ms]) => `${n} ${ms.toFixed(0)}`).join(", ");
    console.log(`    at ${((t.ts - origin) / 1000).toFixed(0)} ms: ${(t.dur / 1000).toFixed(0)} ms — ${s} — ${top}`);
  }
  if (profile) {
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const self = new Map();
    const groups = new Map();
    profile.samples.forEach((id, i) => {
      const f = byId.get(id).callFrame;
      const name = f.functionName || `(${f.url.split("/").pop() || "anonymous"})`;
      const us = profile.timeDeltas[i + 1] ?? 0;
      self.set(name, (self.get(name) ?? 0) + us / 1000);
      const g = f.url.endsWith(".wasm") ? "wasm " + ((name.match(/^<?&?(?:dyn )?([a-z_0-9]+)/) ?? [])[1] ?? "?") : f.url.endsWith(".js") ? "js glue" : f.url === "" ? "native " + name : "page script";
      groups.set(g, (groups.get(g) ?? 0) + us / 1000);
    });
    const top = (m, n) => [...m].filter(([k]) => !/^\((idle|program)\)$/.test(k) && k !== "native (idle)" && k !== "native (program)").sort((a, b) => b[1] - a[1]).slice(0, n);
    console.log("  self time by group (ms):");
    for (const [g, ms] of top(groups, 20)) console.log(`    ${ms.toFixed(0).padStart(6)}  ${g}`);
    console.log("  top functions (ms):");
    for (const [g, ms] of top(self, 40)) console.log(`    ${ms.toFixed(1).padStart(6)}  ${g.slice(0, 120)}`);
  }
}
await browser.close();
server.close();
