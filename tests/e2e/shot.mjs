// Screenshots for looking at what was built: node tests/e2e/shot.mjs OUTDIR WIDTHxHEIGHT "QUERY" [NAME] ...
// Each triple (size, query, name) gives one PNG of the page at that size.
import path from "node:path";
import { serve, launch } from "./harness.mjs";

const [out, ...rest] = process.argv.slice(2);
const server = await serve();
const browser = await launch();
for (let i = 0; i + 2 < rest.length + 1; i += 3) {
  const [size, query, name] = [rest[i], rest[i + 1], rest[i + 2] ?? `shot-${i / 3}`];
  const [width, height] = size.split("x").map(Number);
  const full = height === 0;
  const context = await browser.newContext({ viewport: { width, height: full ? 900 : height }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.on("pageerror", (e) => console.log(`${name}: pageerror ${e.message}`));
  page.on("console", (m) => m.type() === "error" && console.log(`${name}: console ${m.text()}`));
  await page.goto(`${server.base}index.html${query}`);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: path.join(out, `${name}.png`), fullPage: full });
  await context.close();
}
await browser.close();
server.close();
