// Two or more builds of the page, measured interleaved (a load or a run of each
// in turn), so that the machine's drift falls on all of them alike: the way to
// tell whether a change moved a figure on this machine, where a figure moves
// by up to 2× from one bench run to the next (not a test; prints figures).
//
//   node tests/bench/compare.mjs <dist> <dist> [<dist> …]
//     LOADS=31   loads of each page for the first result (default 21)
//     RUNS=5     runs of 100 slider moves of each page (default 5; 0: none)
//     PHONE=1    the phone profile of bench.mjs (390 × 844, DPR 3, CPU 4× slower)
//
// A build of another commit goes into its own folder with
// `scripts/build.sh --dist target/<name>` (after a `git checkout <commit> -- components src styles`).
import path from "node:path";
import { launch } from "../e2e/harness.mjs";
import { DESKTOP, PHONE, firstResult, onSlider, pct, serveDir, sliderSteps } from "./common.mjs";

const dirs = process.argv.slice(2);
if (dirs.length < 2) {
  console.error("usage: node tests/bench/compare.mjs <dist> <dist> [<dist> …]");
  process.exit(2);
}
const profile = process.env.PHONE ? PHONE : DESKTOP;
const loads = Number(process.env.LOADS ?? 21);
const runs = Number(process.env.RUNS ?? 5);
const servers = await Promise.all(dirs.map((d) => serveDir(path.resolve(d))));
const browser = await launch();

const first = dirs.map(() => []);
for (let i = 0; i < loads; i++) for (let k = 0; k < dirs.length; k++) first[k].push((await firstResult(browser, servers[k].url, undefined, profile)).shown);
const steps = dirs.map(() => ({ task: [], frame: [], long: 0 }));
for (let r = 0; r < runs; r++) {
  for (let k = 0; k < dirs.length; k++) {
    const s = await onSlider(browser, servers[k].url, profile, (page) => sliderSteps(page, 100));
    steps[k].task.push(pct(s.work, 95));
    steps[k].frame.push(pct(s.frame, 95));
    steps[k].long += s.longTasks.length;
  }
}
await browser.close();
servers.forEach((s) => s.close());

console.log(`${profile.name}: first result, median of ${loads} loads; slider input → next task / next frame p95, median of ${runs} runs of 100 moves`);
const width = Math.max(...dirs.map((d) => d.length));
dirs.forEach((d, k) => {
  const load = `first result ${pct(first[k], 50).toFixed(0)} ms`;
  const move = runs
    ? `   next task ${pct(steps[k].task, 50).toFixed(1)} ms   next frame ${pct(steps[k].frame, 50).toFixed(1)} ms   long tasks ${steps[k].long}`
    : "";
  console.log(`${d.padEnd(width)}   ${load}${move}`);
});
