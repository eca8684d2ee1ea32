// Where a slider step's time goes (a diagnosis aid, not a benchmark):
//   node tests/bench/profile.mjs [dist-dir] [steps]      PHONE=1: 390×844, DPR 3, CPU 4× slower; DRAG=1: P's whole range
// Drives the params slider like bench.mjs while Chromium traces, then prints the
// main thread's time per trace event (script, style, layout, paint) and the
// functions with the most self time. scripts/profile.sh makes the build with
// wasm function names and runs this on it.
import path from "node:path";
import { launch, ROOT } from "../e2e/harness.mjs";
import { serveDir, sliderSteps, stages, traced } from "./common.mjs";

const dir = path.resolve(process.argv[2] ?? path.join(ROOT, "dist"));
const steps = Number(process.argv[3] ?? 100);
const server = await serveDir(dir);
const url = server.url;

const browser = await launch();
const phone = !!process.env.PHONE;
const page = await (
  await browser.newContext(
    phone
      ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true }
      : { viewport: { width: 1360, height: 1000 } },
  )
).newPage();
if (phone) await (await page.context().newCDPSession(page)).send("Emulation.setCPUThrottlingRate", { rate: 4 });
await page.goto(url);
await page.waitForSelector('[data-testid="per-gpu-total"]');
// CSS=...: try a style change without a rebuild.
if (process.env.CSS) await page.addStyleTag({ content: process.env.CSS });
await page.waitForTimeout(500);
const cdp = await page.context().newCDPSession(page);
await cdp.send("Profiler.enable");
await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
await cdp.send("Profiler.start");
// DRAG=1: a drag across the slider's whole range instead of the bench's narrow steps.
const { result: work, events } = await traced(page, async () => (await sliderSteps(page, steps, !!process.env.DRAG)).work);
const { profile } = await cdp.send("Profiler.stop");
await browser.close();
server.close();

// Main-thread top-level time per event name (complete events, self-nesting ignored).
const byName = new Map();
for (const e of events) {
  byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur / 1000);
}
const sorted = (m) => [...m].sort((a, b) => b[1] - a[1]);
const s = [...work].sort((a, b) => a - b);
console.log(`${steps} steps: input → next task p50 ${s[steps >> 1].toFixed(1)} ms, p95 ${s[Math.floor(steps * 0.95)].toFixed(1)} ms`);
console.log("\nmain thread, ms per step, by trace event (nested events overlap):");
for (const [name, ms] of sorted(byName).slice(0, 16)) console.log(`  ${(ms / steps).toFixed(2).padStart(7)}  ${name}`);
console.log("\nmain thread, ms per step, self time by stage:");
for (const [stage, ms] of stages(events)) console.log(`  ${(ms / steps).toFixed(2).padStart(7)}  ${stage}`);

// Self time per function from the sampling profile.
const self = new Map();
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = new Map();
profile.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
for (const [id, us] of dt) {
  const n = byId.get(id);
  const name = n.callFrame.functionName || `(${n.callFrame.url.split("/").pop() || "anonymous"})`;
  self.set(name, (self.get(name) ?? 0) + us / 1000);
}
console.log("\nself time, ms per step, top functions:");
for (const [name, ms] of sorted(self).filter(([n]) => n !== "(idle)" && n !== "(program)").slice(0, 30))
  console.log(`  ${(ms / steps).toFixed(3).padStart(7)}  ${name.slice(0, 110)}`);

if (process.env.DETAIL) {
  const mainEvents = events;
  const layouts = mainEvents.filter((e) => e.name === "Layout" && e.ph === "X");
  console.log("\nLayout events:", layouts.length, "sample args:", JSON.stringify(layouts.slice(-3).map((e) => [e.dur, e.args])).slice(0, 1500));
  const paints = mainEvents.filter((e) => e.name === "Paint");
  const areas = paints.map((e) => e.args?.data?.clip).filter(Boolean).map((c) => Math.round((c[2] - c[0]) * (c[5] - c[1])));
  console.log("Paint events:", paints.length, "sample:", JSON.stringify(paints.slice(-6).map((e) => [e.dur, e.args?.data])).slice(0, 2000));
  const styles = mainEvents.filter((e) => e.name === "UpdateLayoutTree" && e.ph === "X");
  console.log("Style:", styles.length, JSON.stringify(styles.slice(-3).map((e) => [e.dur, e.args])).slice(0, 800));
}

// CALLERS=name: the stacks that lead to a function's self time.
if (process.env.CALLERS) {
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stacks = new Map();
  for (const [id, us] of dt) {
    const n = byId.get(id);
    if (!n.callFrame.functionName.includes(process.env.CALLERS)) continue;
    const chain = [];
    for (let p = parent.get(id); p && chain.length < 8; p = parent.get(p)) chain.push(byId.get(p).callFrame.functionName.replace(/::h[0-9a-f]{16}$/, "").slice(0, 90));
    const key = chain.join("\n      ← ");
    stacks.set(key, (stacks.get(key) ?? 0) + us / 1000);
  }
  for (const [k, ms] of sorted(stacks).slice(0, 5)) console.log(`\n${(ms / steps).toFixed(3)} ms/step ← ${k}`);
}

// Self time grouped: wasm by crate, the JS glue, and browser natives.
{
  const groups = new Map();
  for (const [id, us] of dt) {
    const n = byId.get(id);
    const f = n.callFrame;
    let g;
    if (["(idle)", "(program)", "(garbage collector)"].includes(f.functionName)) g = f.functionName;
    else if (f.url.endsWith(".wasm")) g = "wasm " + ((f.functionName.match(/^<?&?(?:dyn )?([a-z_0-9]+)/) ?? [])[1] ?? "?");
    else if (f.url.endsWith(".js")) g = "js glue";
    else if (f.url === "") g = "native " + f.functionName;
    else g = "page script";
    groups.set(g, (groups.get(g) ?? 0) + us / 1000);
  }
  console.log("\nself time by group, ms per step:");
  for (const [g, ms] of sorted(groups).slice(0, 25)) console.log(`  ${(ms / steps).toFixed(3).padStart(7)}  ${g}`);
}

// Forced style/layout: recalculations inside script (a rAF callback or a task's
// script), not in the frame's own rendering step.
if (process.env.DETAIL) {
  const onMain = events;
  const scripts = onMain.filter((e) => e.name === "FireAnimationFrame" || e.name === "TimerFire" || e.name === "EventDispatch");
  const inside = (e) => scripts.some((s) => e.ts >= s.ts && e.ts + e.dur <= s.ts + s.dur);
  for (const name of ["UpdateLayoutTree", "Layout"]) {
    const all = onMain.filter((e) => e.name === name);
    const forced = all.filter(inside);
    const ms = (xs) => (xs.reduce((a, e) => a + e.dur, 0) / 1000 / steps).toFixed(2);
    console.log(`${name}: ${ms(all)} ms/step, of which forced inside script ${ms(forced)} ms/step (${forced.length} events)`);
  }
}
