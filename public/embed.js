// The calculator's figures in another page, from one module: where a host
// allows scripts, every figure of the page shares one download, one compile
// and one instance of the calculator, where each iframe loads its own.
//
//   <div data-tmath="view=compute&lang=ko" data-loading="lazy" style="min-height:740px;max-width:720px"></div>
//   <script type="module" src="https://…/embed.js"></script>
//
// Each element gets a shadow root (the host's styles and the figure's stay
// apart), the site's stylesheet with the page rules on that root (embed.css)
// and a figure with its own state (mount_figure). With data-loading="lazy" a
// figure mounts as it comes near the screen, as a lazy iframe loads; the others
// mount at once. One figure per task: the reader's scrolling waits for one at
// most. Elements added later (a page its own script renders) are taken as
// they arrive. scripts/post-build.mjs puts the glue's and the wasm's names in place of GLUE and WASM.
import init, { mount_figure } from "./GLUE.js";

const base = new URL("./", import.meta.url).href;
// Read by the wasm before it starts: it then mounts no page of its own.
globalThis.__tmath_embed = base;

const css = fetch(new URL("embed.css", base)).then((r) => r.text());
await init({ module_or_path: new URL("./WASM", import.meta.url) });
const sheet = new CSSStyleSheet();
sheet.replaceSync(await css);

const queue = [];
let pumping = false;
function pump() {
  const host = queue.shift();
  if (!host) return void (pumping = false);
  const shadow = host.attachShadow({ mode: "open" });
  shadow.adoptedStyleSheets = [sheet];
  const root = document.createElement("div");
  root.className = "tmath-root";
  shadow.append(root);
  mount_figure(root, host.dataset.tmath);
  setTimeout(pump);
}
function mount(host) {
  if (host.shadowRoot || queue.includes(host)) return;
  queue.push(host);
  if (!pumping) (pumping = true), setTimeout(pump);
}

// Chromium's distance for lazy frames on a fast link.
const near = new IntersectionObserver(
  (entries) => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      near.unobserve(e.target);
      mount(e.target);
    }
  },
  { rootMargin: "1250px 0px" },
);
function take(host) {
  if (host.dataset.loading === "lazy") near.observe(host);
  else mount(host);
}
for (const host of document.querySelectorAll("[data-tmath]")) take(host);
// A host that writes its article after this runs (a page its own script renders)
// gets its figures as the elements arrive.
new MutationObserver((records) => {
  for (const r of records) {
    for (const n of r.addedNodes) {
      if (n.nodeType !== 1) continue;
      if (n.matches("[data-tmath]")) take(n);
      for (const host of n.querySelectorAll("[data-tmath]")) take(host);
    }
  }
}).observe(document.documentElement, { childList: true, subtree: true });
