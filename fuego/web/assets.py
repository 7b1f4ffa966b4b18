"""The players' screen's page: its HTML, style sheet and script, held here as text.

The server serves exactly these (a fixed dict, never a folder): no path can reach another file.
The page draws nothing itself: the maps come as SVG made by :mod:`fuego.web.svg`; the script
puts them, the heroes and the narration in place, listens for new states (server-sent events;
EventSource reconnects by itself, and a closed stream is opened again) and, for a saved session,
steps through the rounds.
"""

from __future__ import annotations

from html import escape

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>fuego - players' screen</title>
<link rel="stylesheet" href="/page.css?token={token}">
<script src="/page.js?token={token}" defer></script>
</head>
<body>
<header id="top">
  <h1 id="title">fuego</h1>
  <div id="moment" aria-live="polite">connecting</div>
  <div id="shown" hidden></div>
  <div id="conn" class="conn" role="status">connecting</div>
  <div id="changes" aria-live="polite" hidden></div>
</header>
<nav id="pick" aria-label="whose eyes"></nav>
<nav id="review" hidden>
  <button id="prev" type="button">&#9664; earlier</button>
  <span id="frame-label"></span>
  <button id="next" type="button">later &#9654;</button>
  <button id="latest" type="button">latest</button>
</nav>
<main>
  <section id="maps" aria-label="maps"></section>
  <section id="legend"><h2>Key</h2>
    <ul>
      <li><svg viewBox="0 0 40 40" aria-hidden="true">
        <circle cx="20" cy="20" r="14" fill="#ff8a1f" stroke="#ffd447" stroke-width="3"/>
        <text x="20" y="27" fill="#fff" font-size="18" font-weight="bold" text-anchor="middle">3</text>
        </svg> fire: its Fire Dice, bigger as it grows</li>
      <li><svg viewBox="0 0 40 40" aria-hidden="true">
        <circle cx="17" cy="22" r="14" fill="#ff2d2d" stroke="#ffd447" stroke-width="3"/>
        <polygon points="30,3 39,18 21,18" fill="#fff" stroke="#7a0000" stroke-width="2"/>
        </svg> hot fire (triangle)</li>
      <li id="key-flame" hidden><svg viewBox="0 0 40 40" aria-hidden="true">
        <circle cx="20" cy="20" r="14" fill="none" stroke="#ffd447" stroke-width="3"/>
        <text x="20" y="27" fill="#fff" font-size="18" font-weight="bold" text-anchor="middle">1</text>
        </svg> Flame: a fire just caught, not spreading yet (hollow)</li>
      <li><svg viewBox="0 0 40 40" aria-hidden="true">
        <circle cx="20" cy="20" r="18" fill="none" stroke="#fff36b" stroke-width="3"
        stroke-dasharray="5 3"/>
        <circle cx="20" cy="20" r="12" fill="#ff8a1f" stroke="#ffd447" stroke-width="3"/>
        </svg> new this round (ring)</li>
      <li><svg viewBox="0 0 40 40" aria-hidden="true">
        <circle cx="24" cy="24" r="13" fill="#ff8a1f" stroke="#ffd447" stroke-width="3"/>
        <path d="M3 14L11 4L19 14" stroke="#fff36b" stroke-width="4" fill="none"/>
        </svg> grew this round</li>
      <li><svg viewBox="0 0 40 40" aria-hidden="true">
        <line x1="4" y1="20" x2="36" y2="20" stroke="#fff36b" stroke-width="16"
        stroke-opacity="0.45" stroke-linecap="round"/>
        <rect x="6" y="15" width="28" height="10" fill="none" stroke="#c98a4b" stroke-width="2"/>
        </svg> opened or broken this round</li>
      <li><svg viewBox="0 0 40 40" aria-hidden="true">
        <rect x="5" y="22" width="30" height="8" rx="2" fill="#8a5a2b" stroke="#ffd447" stroke-width="2"/>
        <circle cx="13" cy="33" r="4" fill="#2a1a0e" stroke="#ffd447" stroke-width="2"/>
        <circle cx="27" cy="33" r="4" fill="#2a1a0e" stroke="#ffd447" stroke-width="2"/>
        <polygon points="14,22 20,6 26,22" fill="#ff8a1f" stroke="#ffd447" stroke-width="2"/>
        </svg> burning wreck (cart, boat)</li>
      <li><svg viewBox="0 0 40 40" aria-hidden="true"><rect width="40" height="40" fill="#3b3631"/>
        <rect width="40" height="40" fill="url(#k-thin)"/><defs>
        <pattern id="k-thin" width="16" height="16" patternUnits="userSpaceOnUse"
        patternTransform="rotate(45)">
        <line x1="0" y1="0" x2="0" y2="16" stroke="#e0e0e0" stroke-width="3" stroke-opacity="0.55"/>
        </pattern></defs></svg> thin smoke //</li>
      <li><svg viewBox="0 0 40 40" aria-hidden="true"><rect width="40" height="40" fill="#3b3631"/>
        <rect width="40" height="40" fill="#b4b4b4" fill-opacity="0.42"/>
        <path d="M0 10L10 0M0 30L30 0M10 40L40 10M30 40L40 30M0 10L30 40M0 30L10 40M10 0L40 30M30 0L40
        10" stroke="#f2f2f2" stroke-width="3" stroke-opacity="0.7"/></svg> thick smoke xx</li>
      <li><svg viewBox="0 0 40 40" aria-hidden="true"><rect width="40" height="40" fill="#080808"/>
        <path d="M6 6L34 34M34 6L6 34" stroke="#6d6d6d" stroke-width="3"/></svg> burned out</li>
      <li id="key-firebreak" hidden><svg viewBox="0 0 40 40" aria-hidden="true">
        <rect width="40" height="40" fill="#20402c"/>
        <rect width="40" height="40" fill="#6b4a2b" fill-opacity="0.75"/>
        <g fill="#d8b98a"><circle cx="7" cy="7" r="2"/><circle cx="20" cy="20" r="2"/>
        <circle cx="33" cy="33" r="2"/><circle cx="33" cy="7" r="2"/><circle cx="7" cy="33" r="2"/>
        </g></svg> fire break (cleared ground)</li>
      <li><svg viewBox="0 0 40 40" aria-hidden="true">
        <rect x="4" y="14" width="32" height="12" fill="#c98a4b" stroke="#111" stroke-width="2"/>
        </svg> closed door (filled)</li>
      <li><svg viewBox="0 0 40 40" aria-hidden="true">
        <rect x="4" y="14" width="32" height="12" fill="none" stroke="#c98a4b" stroke-width="2"/>
        <line x1="4" y1="20" x2="4" y2="40" stroke="#c98a4b" stroke-width="4"/>
        </svg> open door (hollow)</li>
      <li><svg viewBox="0 0 40 40" aria-hidden="true">
        <rect x="4" y="14" width="32" height="12" fill="#8fd3ff" stroke="#111" stroke-width="2"/>
        <line x1="4" y1="20" x2="36" y2="20" stroke="#10202c" stroke-width="2"/>
        </svg> closed window</li>
      <li><svg viewBox="0 0 40 40" aria-hidden="true">
        <rect x="4" y="14" width="32" height="12" fill="none" stroke="#ff6b5b" stroke-width="3"
        stroke-dasharray="6 4"/><path d="M4 14L36 26M36 14L4 26" stroke="#ff6b5b" stroke-width="3"/>
        </svg> broken (dashed, x)</li>
      <li><svg viewBox="0 0 40 40" aria-hidden="true">
        <circle cx="20" cy="20" r="15" fill="#050505" stroke="#ff6b5b" stroke-width="3"
        stroke-dasharray="6 4"/></svg> hole, collapsed floor</li>
      <li><svg viewBox="0 0 40 40" aria-hidden="true">
        <circle cx="20" cy="20" r="14" fill="#3d8bfd" stroke="#fff" stroke-width="3"/>
        <text x="20" y="26" fill="#fff" font-size="15" font-weight="bold" text-anchor="middle">IS</text>
        </svg> hero</li>
      <li><svg viewBox="0 0 40 40" aria-hidden="true">
        <rect x="6" y="6" width="28" height="28" rx="4" fill="#f2c744" stroke="#fff" stroke-width="3"/>
        <text x="20" y="26" fill="#111" font-size="15" font-weight="bold" text-anchor="middle">MH</text>
        </svg> someone else</li>
      <li><svg viewBox="0 0 40 40" aria-hidden="true">
        <rect x="3" y="3" width="34" height="34" fill="none" stroke="#5ee08c" stroke-width="3"
        stroke-dasharray="8 5"/></svg> way out</li>
      <li><svg viewBox="0 0 40 40" aria-hidden="true">
        <rect width="40" height="40" fill="#211f1c" stroke="#57514a"/>
        </svg> out of the heroes' sight</li>
    </ul>
  </section>
  <aside>
    <section id="me" hidden></section>
    <section id="ruin" hidden></section>
    <section id="heroes-box"><h2>Heroes</h2><ul id="heroes"></ul></section>
    <section id="story"><h2>What happens</h2><div id="lines"></div></section>
  </aside>
</main>
</body>
</html>
"""

CSS = """
:root { color-scheme: dark; --bg: #101114; --panel: #1b1c21; --text: #f1ece2; --dim: #a7a196;
  --fire: #ff8a1f; --hot: #ff2d2d; --hero: #3d8bfd; --ok: #5ee08c; }
* { box-sizing: border-box; }
html, body { margin: 0; background: var(--bg); color: var(--text);
  font-family: "DejaVu Sans", "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
body { font-size: clamp(16px, 1.25vw, 26px); line-height: 1.3; display: flex;
  flex-direction: column; height: 100vh; overflow: hidden;
  overflow-wrap: anywhere; }  /* a name of one long word breaks rather than runs off the page */
header#top { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.4em 1.2em;
  padding: 0.35em 0.8em; background: #16171b; border-bottom: 2px solid #2c2d33; }
h1 { margin: 0; font-size: 1.45em; letter-spacing: 0.02em; }
#moment { font-size: 1.35em; font-weight: bold; color: #ffd9a8; }
.conn { margin-left: auto; font-size: 0.8em; color: var(--dim); }
.conn.live::before { content: "\\25CF  "; color: var(--ok); }
.conn.lost { color: #ffb4a8; }
.conn.lost::before { content: "\\25CB  "; }
nav#review { display: flex; gap: 0.6em; align-items: center; padding: 0.3em 0.8em;
  background: #22232a; }
nav#review[hidden] { display: none; }
nav#review button { font: inherit; padding: 0.2em 0.8em; background: #30323b; color: var(--text);
  border: 1px solid #555; border-radius: 6px; }
#frame-label { font-weight: bold; min-width: 12em; text-align: center; }
main { display: grid; grid-template-columns: minmax(0, 1fr) minmax(17em, 23vw);
  grid-template-rows: minmax(0, 1fr) auto; gap: 0.6em; padding: 0.6em; flex: 1 1 auto;
  min-height: 0; }
#maps { grid-column: 1; grid-row: 1; }
#legend { grid-column: 1; grid-row: 2; background: var(--panel); border-radius: 8px;
  padding: 0.3em 0.7em; }
aside { grid-column: 2; grid-row: 1 / span 2; }
#maps { display: grid; min-height: 0; overflow: auto;
  grid-template-columns: repeat(auto-fit, minmax(min(100%, 30em), 1fr));
  gap: 0.6em; align-content: start; }
figure.level { margin: 0; background: var(--panel); border-radius: 8px; padding: 0.3em 0.4em; }
figure.level figcaption { font-size: 1.05em; font-weight: bold; color: #e9d9bd; padding: 0 0.2em; }
figure.level.heroes-here figcaption::after { content: "  - heroes here"; color: #9cc3ff;
  font-weight: normal; font-size: 0.85em; }
figure.level svg { display: block; width: 100%; height: auto; }
svg text.outlined, svg .outlined { paint-order: stroke; stroke: #101114; stroke-width: 4px;
  stroke-linejoin: round; }
aside { display: flex; flex-direction: column; gap: 0.6em; min-width: 0; min-height: 0; }
#story { flex: 1 1 auto; min-height: 6em; overflow: hidden; display: flex;
  flex-direction: column; }
aside section { background: var(--panel); border-radius: 8px; padding: 0.4em 0.7em; }
aside h2 { margin: 0 0 0.3em; font-size: 1em; color: var(--dim); text-transform: uppercase;
  letter-spacing: 0.08em; }
ul#heroes { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column;
  gap: 0.45em; }
ul#heroes li { display: grid; grid-template-columns: 2.2em 1fr; gap: 0 0.5em; align-items: start; }
ul#heroes .hname .wounds { white-space: nowrap; margin-left: 0.3em; }
.token { grid-row: span 2; font-size: 0.8em; width: 2.2em; height: 2.2em; border-radius: 50%;
  background: var(--hero);
  border: 3px solid #fff; display: flex; align-items: center; justify-content: center;
  font-weight: bold; white-space: nowrap; }
.token { color: #fff; }
.token .more { font-size: 0.78em; }
.token.npc { border-radius: 6px; background: #f2c744; color: #111; }
.token.knocked-out { background: #b9b9b9; color: #111; }
.token.dead { background: #1a1a1a; color: #fff; }
.token.escaped { background: #1d2b3d; color: #fff; border-style: dashed; }
.token.npc.escaped { background: #4a3d12; color: #fff3c4; }
.hname { font-weight: bold; font-size: 1.05em; }
.where, .wounds { color: var(--dim); font-size: 0.85em; font-weight: normal; }
.wounds b { color: var(--text); }
.conds { display: flex; flex-wrap: wrap; gap: 0.25em 0.4em; align-items: baseline; }
.cond { font-size: 0.8em; padding: 0.05em 0.5em; border-radius: 999px; background: #33343c;
  border: 1px solid #666; }
.cond.alarm { background: #5a1410; border-color: #ff6b5b; color: #ffd2cc; font-weight: bold; }
.cond.alarm::before { content: "\\26A0  "; }
#lines { flex: 1 1 auto; min-height: 0; overflow-y: auto; overscroll-behavior: contain;
  scrollbar-width: thin; padding-right: 0.3em; }
#lines section.round-lines { margin: 0 0 0.5em; }
#lines h3 { margin: 0.2em 0; font-size: 0.9em; color: #ffd9a8; letter-spacing: 0.04em;
  position: sticky; top: 0; background: var(--panel); }
#lines ol { margin: 0; padding-left: 0; list-style: none; display: flex; flex-direction: column;
  gap: 0.25em; }
#lines li { padding-left: 0.6em; border-left: 3px solid #3a3b44; }
#lines li.round { color: var(--dim); font-size: 0.85em; }
#lines li.fire { border-left-color: #a8561a; }
#lines li.alarm { border-left-color: #ff6b5b; font-weight: bold; color: #ffd2cc; }
#lines li.read { font-style: italic; color: #e9d9bd; }
#lines li.gm { border-left-color: #c7a6ff; color: #e3d4ff; font-weight: bold; }
#lines li.gm::before { content: "GM: "; color: #c7a6ff; }
#lines li.weather { color: #bcd7e8; }
#lines section.round-lines.now li:last-child { border-left-color: var(--fire); }
#changes { flex-basis: 100%; font-size: 1.05em; color: #fff36b; }
#changes[hidden], #shown[hidden], #me[hidden], #ruin[hidden], #heroes-box[hidden] { display: none; }
#changes b { color: #fff; }
#shown { font-size: 0.8em; padding: 0.05em 0.6em; border-radius: 999px; background: #3b2c57;
  border: 1px solid #c7a6ff; color: #e3d4ff; }
nav#pick { display: flex; flex-wrap: wrap; gap: 0.3em 0.5em; align-items: center;
  padding: 0.2em 0.8em; background: #17181c; font-size: 0.8em; }
nav#pick:empty { display: none; }
nav#pick a { color: #9cc3ff; text-decoration: none; padding: 0.05em 0.6em;
  border: 1px solid #3a4a66; border-radius: 999px; }
nav#pick a.here { background: #3d8bfd; color: #fff; border-color: #fff; font-weight: bold; }
#me { border: 2px solid var(--hero); }
#me .mename { font-size: 1.3em; font-weight: bold; }
#me .big { font-size: 1.15em; margin: 0.15em 0; }
#me .big b { font-size: 1.2em; }
#me .sees { color: var(--dim); font-size: 0.85em; }
#ruin { border: 2px solid var(--fire); }
#ruin ul { margin: 0.2em 0; padding-left: 1.1em; }
#ruin p { margin: 0.25em 0; font-size: 0.9em; }
#ruin .burned { color: #ffb48a; } #ruin .burned b { color: #ff8a1f; }
#ruin li.got-out::marker { content: "\\2713  "; color: var(--ok); }
#ruin li.died { color: #ffb4a8; }
#legend ul { list-style: none; margin: 0; padding: 0; display: grid;
  grid-template-columns: repeat(9, minmax(0, 1fr)); gap: 0.1em 0.5em; font-size: 0.62em; }
#legend h2 { display: none; }
#legend li { display: flex; align-items: center; gap: 0.4em; }
#legend li[hidden] { display: none; }
#legend svg { width: 1.8em; height: 1.8em; flex: none; }
.nofire { color: var(--dim); }
nav#review { flex-wrap: wrap; }
@media (max-width: 900px) {
  body { font-size: 16px; height: auto; overflow: visible; display: block; }
  #story { overflow: visible; } #lines { max-height: 60vh; }
  #legend ul { font-size: 0.8em; }
  main { grid-template-columns: minmax(0, 1fr); padding: 0.4em; }
  aside { display: contents; }
  #maps, #legend, aside, #me, #ruin, #heroes-box, #story { grid-column: 1; grid-row: auto; }
  /* a phone: the hero and the story first, then the maps */
  #me { order: -3; } #ruin { order: -2; } #heroes-box { order: -1; } #story { order: 0; }
  #maps { order: 1; grid-template-columns: minmax(0, 1fr); }
  #legend { order: 2; }
  #legend ul { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  ul#heroes li { grid-template-columns: 2em 1fr; }
  header#top { padding: 0.3em 0.5em; gap: 0.1em 0.8em; }
  h1 { font-size: 1.15em; } #moment { font-size: 1.05em; } #changes { font-size: 0.95em; }
  .conn { margin-left: 0; }
  nav#review { padding: 0.3em 0.5em; gap: 0.4em; }
  nav#review button { padding: 0.2em 0.5em; }
  #frame-label { min-width: 0; flex: 1 1 100%; order: -1; text-align: left; }
}
"""

JS = r"""
"use strict";
(function () {
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || "";
  const hero = params.get("hero") || "";  // a player's own page: that hero's key
  const q = "?token=" + encodeURIComponent(token);
  const qv = q + (hero ? "&hero=" + encodeURIComponent(hero) : "");
  const $ = (id) => document.getElementById(id);
  let live = null;        // the newest state message from the stream
  let shown = "";         // instance:version (or frame) on the page now
  let frame = null;       // the review's frame number, null when following the play
  let source = null;
  let atStoryEnd = true;  // the story's box shows its newest line (the reader has not scrolled back)

  function text(tag, cls, words) {
    const el = document.createElement(tag);
    if (cls) el.className = cls;
    if (words !== undefined) el.textContent = words;
    return el;
  }

  function drawMaps(state) {
    const maps = $("maps");
    const here = new Set(state.heroes.filter((h) => h.status !== "escaped")
                                     .map((h) => h.area.split(":")[0]));
    const want = state.levels.map((l) => "lvl-" + l.name);
    const have = Array.from(maps.children).map((f) => f.id);
    if (want.join("|") !== have.join("|")) {
      maps.replaceChildren(...state.levels.map((l) => {
        const fig = text("figure", "level");
        fig.id = "lvl-" + l.name;
        const cap = text("figcaption", "", l.name + (l.elevation ? " (level " + l.elevation + ")" : ""));
        fig.append(cap, text("div", "svgwrap"));
        return fig;
      }));
    }
    state.levels.forEach((l) => {
      const fig = $("lvl-" + l.name);
      fig.classList.toggle("heroes-here", here.has(l.name));
      fig.classList.toggle("focus", l.name === state.focus);
      const wrap = fig.querySelector(".svgwrap");
      if (wrap.dataset.svg !== l.svg) { wrap.innerHTML = l.svg; wrap.dataset.svg = l.svg; }
    });
    // the key names a fire break only where a map shows one,
    $("key-firebreak").hidden = !document.querySelector("#maps .firebreak");
    // and a Flame (the flame-and-blaze module's beginning fire) only where one burns
    $("key-flame").hidden = !document.querySelector("#maps .fire-flame");
  }

  // Wide screens: the busiest level big, the others beside it (a column on the right) or
  // under it (a row), whichever draws them bigger; never another level bigger than the busiest.
  // Narrow screens: one column, the busiest level first.
  function fit() {
    const maps = $("maps");
    const figs = Array.from(maps.children);
    const svgs = figs.map((f) => f.querySelector("svg"));
    if (!figs.length || svgs.some((s) => !s)) return;
    const focus = figs.find((f) => f.classList.contains("focus")) || figs[0];
    const others = figs.filter((f) => f !== focus);
    figs.forEach((f) => { f.style.gridColumn = ""; f.style.gridRow = ""; f.style.order = ""; });
    maps.style.gridTemplateRows = "";
    focus.style.order = "-1";
    if (window.matchMedia("(max-width: 900px)").matches) {
      maps.style.gridTemplateColumns = "";
      svgs.forEach((s) => { s.style.maxHeight = ""; });
      return;
    }
    const size = (f) => {
      const box = f.querySelector("svg").viewBox.baseVal;
      return [box.width || 1, box.height || 1];
    };
    const width = maps.clientWidth, height = maps.clientHeight, gap = 10;
    const caption = focus.querySelector("figcaption").offsetHeight + 14;
    const fits = (f, w, h) => Math.max(0.01, Math.min((w - 14) / size(f)[0], (h - caption) / size(f)[1]));
    const n = others.length;
    let best = { side: true, part: 0, big: fits(focus, width, height), small: 0 };
    for (let part = 0.16; n && part <= 0.6; part += 0.02) {
      for (const side of [true, false]) {
        const big = side ? fits(focus, width * (1 - part) - gap, height)
                         : fits(focus, width, height * (1 - part) - gap);
        const small = Math.min(big, ...others.map((f) => side
          ? fits(f, width * part - gap, (height - gap * (n - 1)) / n)
          : fits(f, (width - gap * (n - 1)) / n, height * part - gap)));
        if (!best.small || big + 1.5 * small > best.big + 1.5 * best.small) {
          best = { side, part, big, small };
        }
      }
    }
    const px = (f, scale) => { f.querySelector("svg").style.maxHeight =
                               Math.floor(scale * size(f)[1]) + "px"; };
    px(focus, best.big);
    if (!n) { maps.style.gridTemplateColumns = "minmax(0, 1fr)"; return; }
    const a = (1 - best.part).toFixed(2), b = best.part.toFixed(2);
    if (best.side) {
      maps.style.gridTemplateColumns = "minmax(0, " + a + "fr) minmax(0, " + b + "fr)";
      focus.style.gridColumn = "1";
      focus.style.gridRow = "1 / span " + n;
      others.forEach((f, k) => { f.style.gridColumn = "2"; f.style.gridRow = String(k + 1); });
    } else {
      maps.style.gridTemplateColumns = "repeat(" + n + ", minmax(0, 1fr))";
      maps.style.gridTemplateRows = "minmax(0, " + a + "fr) minmax(0, " + b + "fr)";
      focus.style.gridColumn = "1 / span " + n;
      focus.style.gridRow = "1";
      others.forEach((f, k) => { f.style.gridColumn = String(k + 1); f.style.gridRow = "2"; });
    }
    others.forEach((f) => px(f, best.small));
  }

  function drawHeroes(state) {
    const others = state.hero ? state.heroes.filter((h) => h.name !== state.hero.name)
                              : state.heroes;
    $("heroes-box").hidden = !others.length;
    $("heroes").replaceChildren(...others.map((h) => {
      const li = text("li", "hero " + h.status);
      li.id = "card-" + h.name.replace(/[^A-Za-z0-9_-]/g, "-");
      const token = text("div", "token " + h.status + (h.npc ? " npc" : ""));
      token.append(text("span", h.initials.length > 2 ? "more" : "", h.initials));
      li.append(token);
      const name = text("div", "hname", h.name + " ");
      const w = text("span", "wounds");
      w.append(text("b", "", String(h.flesh)), " FW  ",
               text("b", "", h.dramatic + "/" + h.knocked_out_at), " DW");
      name.append(w);
      li.append(name);
      const c = text("div", "conds");
      c.append(text("span", "where", h.where));
      h.conditions.forEach((k) => {
        const alarm = /alight|confused|breath|knocked|dead|crippled|thick/.test(k);
        c.append(text("span", "cond" + (alarm ? " alarm" : ""), k));
      });
      li.append(c);
      return li;
    }));
  }

  // The story: every round kept, the newest at the bottom, scrolled there unless the reader
  // has scrolled back to an earlier round.
  function drawLines(state) {
    const box = $("lines");
    const rounds = state.story || [];
    // the heading says the round: its "begins" and "ends" lines are left out; rounds in a row
    // where the heroes see nothing share one heading ("Rounds 12-24")
    const groups = [];
    rounds.forEach((r) => {
      const lines = r.lines.filter((l) => !/^Round \d+ (begins|ends)$/.test(l.text));
      const last = groups[groups.length - 1];
      if (!lines.length && r.round && last && !last.lines.length && last.round &&
          r.round === last.to + 1) last.to = r.round;
      else groups.push({ round: r.round, to: r.round, lines });
    });
    box.replaceChildren(...groups.map((g, k) => {
      const sec = text("section", "round-lines" + (k === groups.length - 1 ? " now" : ""));
      sec.dataset.round = g.round;
      if (g.to !== g.round) sec.dataset.to = g.to;
      sec.append(text("h3", "", !g.round ? "Before round 1" : g.to === g.round ? "Round " + g.round
                                : "Rounds " + g.round + "\u2013" + g.to));
      const ol = text("ol");
      if (!g.lines.length) ol.append(text("li", "round", "nothing the heroes see"));
      g.lines.forEach((line) => ol.append(text("li", line.kind, line.text)));
      sec.append(ol);
      return sec;
    }));
    box.style.maxHeight = "";
    if (atStoryEnd || !box.dataset.drawn) { box.scrollTop = box.scrollHeight; snapStory(); }
    box.dataset.drawn = "1";
  }

  // The story scrolled to its end shows whole lines: an item cut by the box's top edge (or by
  // the round's heading stuck there) is left out, the box made that much shorter.
  function snapStory() {
    const box = $("lines");
    for (let k = 0; k < 4; k++) {
      if (box.scrollHeight - box.scrollTop - box.clientHeight > 1) return;  // scrolled back
      const top = box.getBoundingClientRect().top;
      // a heading stuck at the top (not one its round's end pushes out) hides what is under it
      const stuck = (el) => el.tagName === "H3" && getComputedStyle(el).position === "sticky" &&
        Math.abs(el.getBoundingClientRect().top - top) <= 1;
      let edge = top;
      box.querySelectorAll("h3").forEach((h) => {
        if (stuck(h)) edge = Math.max(edge, h.getBoundingClientRect().bottom);
      });
      let cut = 0;
      box.querySelectorAll("li, h3").forEach((el) => {
        const b = el.getBoundingClientRect();
        if (stuck(el) || b.top >= edge - 0.5 || b.bottom <= edge + 0.5) return;
        const range = document.createRange();
        range.selectNodeContents(el);
        const rects = Array.from(range.getClientRects());
        const cuts = rects.filter((r) => r.top < edge - 0.5 && r.bottom > edge + 0.5);
        // the whole item (not the end of a sentence, nor the foot of a line and its border),
        // unless it is most of what the box holds: then its lines cut
        if (b.bottom - edge < 0.6 * (box.getBoundingClientRect().bottom - edge) ||
            !rects.some((r) => r.top >= edge - 0.5)) cut = Math.max(cut, b.bottom - edge);
        else if (cuts.length) cut = Math.max(cut, cuts[cuts.length - 1].bottom - edge);
      });
      if (cut < 0.5) return;
      box.style.maxHeight = Math.floor(box.clientHeight - cut) + "px";
      box.scrollTop = box.scrollHeight;
    }
  }

  function drawPick(state) {
    const nav = $("pick");
    const players = state.players || [];
    if (!players.length) { nav.replaceChildren(); return; }
    const link = (label, key, title) => {
      const a = text("a", key === hero ? "here" : "", label);
      a.href = "/" + q + (key ? "&hero=" + encodeURIComponent(key) : "");
      a.title = title;
      if (key) a.dataset.hero = key; else a.id = "pick-table";
      return a;
    };
    nav.replaceChildren(text("span", "", "See through:"),
      link("the table", "", "what all the heroes see"),
      ...players.map((p) => link(p.name, p.key, p.name + "'s own view")));
  }

  function drawMe(state) {
    const box = $("me");
    const me = state.hero;
    box.hidden = !me;
    if (!me) { box.replaceChildren(); return; }
    const head = text("div", "mename", me.name);
    const where = text("div", "where", me.where);
    const w = text("div", "big");
    w.append(text("b", "", String(me.flesh)), " Flesh Wounds   ",
             text("b", "", me.dramatic + "/" + me.knocked_out_at), " Dramatic Wounds");
    const c = text("div", "conds");
    if (!me.conditions.length) c.append(text("span", "cond", "no trouble yet"));
    me.conditions.forEach((k) => {
      const alarm = /alight|confused|breath|knocked|dead|crippled|thick/.test(k);
      c.append(text("span", "cond" + (alarm ? " alarm" : ""), k));
    });
    const sees = text("div", "sees", "Sees: " + me.sees +
                       (state.revealed && !state.ended ? " (and what the GM shows)" : ""));
    box.replaceChildren(head, where, w, c, sees);
    box.dataset.hero = me.key;
  }

  function drawRuin(state) {
    const box = $("ruin");
    const r = state.ruin;
    box.hidden = !r;
    if (!r) { box.replaceChildren(); return; }
    const parts = [text("h2", "", "The end of the scene"),
      text("div", "big", r.burned + " of " + r.areas + " areas burned" +
           (r.burning ? ", " + r.burning + " still burning" : ""))];
    ["burned out", "partly burned", "still burning"].forEach((what) => {
      const rooms = r.rooms.filter((room) => room.state === what).map((room) => room.name);
      if (!rooms.length) return;
      const p = text("p", "burned");
      p.append(text("b", "", what[0].toUpperCase() + what.slice(1) + ": "), rooms.join(", "));
      parts.push(p);
    });
    const people = text("ul", "fates");
    r.heroes.forEach((h) => people.append(text("li", h.fate.replace(/ /g, "-"),
                                               h.name + " " + h.fate)));
    parts.push(people);
    box.replaceChildren(...parts);
  }

  function draw(state, label) {
    document.title = state.title + " - " + state.moment;
    $("title").textContent = state.title;
    $("moment").textContent = (label ? "Review: " : "") + state.moment +
      (state.ended ? "" : state.blind ? "  -  " + state.blind : state.fires ? "  -  " +
       state.fires + (state.fires === 1 ? " fire" : " fires") + " in sight"
       : "  -  no fire in sight");
    const ch = $("changes");
    ch.hidden = !(state.changes && state.changes.text);
    ch.textContent = ch.hidden ? "" : (state.changes.round === state.round ? "This round: "
      : "Round " + state.changes.round + ": ") + state.changes.text;
    $("shown").hidden = !state.revealed || state.ended;
    $("shown").textContent = "the GM shows more";
    drawPick(state);
    drawMe(state);
    drawRuin(state);
    drawMaps(state);
    fit();
    drawHeroes(state);
    drawLines(state);
    document.body.dataset.round = state.round;
  }

  function showLive() {
    if (!live || frame !== null) return;
    const key = live.instance + ":" + live.version;
    if (key === shown) return;
    shown = key;
    draw(live.state, null);
    document.body.dataset.version = live.version;
    review();
  }

  function review() {
    const frames = (live && live.frames) || [];
    $("review").hidden = frames.length === 0 || !!hero;
    if (!frames.length) return;
    const n = frame === null ? frames.length - 1 : frame;
    $("frame-label").textContent = frames[n] + " (" + (n + 1) + "/" + frames.length + ")";
    $("prev").disabled = n <= 0;
    $("next").disabled = n >= frames.length - 1;
    $("latest").disabled = frame === null;
  }

  async function goto(n) {
    const frames = (live && live.frames) || [];
    if (n < 0 || n >= frames.length) return;
    const reply = await fetch("/frames/" + n + q, { cache: "no-store" });
    if (!reply.ok) return;
    const msg = await reply.json();
    frame = n;
    shown = "frame:" + n;
    draw(msg.state, msg.label);
    review();
  }

  function status(word, cls) {
    const el = $("conn");
    el.textContent = word;
    el.className = "conn " + (cls || "");
  }

  function connect() {
    if (source) source.close();
    source = new EventSource("/events" + qv);
    source.addEventListener("open", () => status("live", "live"));
    source.addEventListener("state", (e) => {
      live = JSON.parse(e.data);
      status("live", "live");
      showLive();
      review();
    });
    source.addEventListener("error", () => {
      status("reconnecting", "lost");
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
      if (hero) noSuchHero();
    });
  }

  // A player's page for a hero who is not (or no longer) in the scene: say so, and offer the
  // table's page.
  async function noSuchHero() {
    let reply;
    try { reply = await fetch("/state" + qv, { cache: "no-store" }); } catch (e) { return; }
    if (reply.status !== 404) return;
    if (source) source.close();
    status("no such hero", "lost");
    const m = $("moment");
    m.replaceChildren("No hero '" + hero + "' in this scene: ");
    const a = text("a", "", "open the table's page");
    a.href = "/" + q;
    a.id = "to-table";
    m.append(a);
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("prev").addEventListener("click", () => {
      const frames = (live && live.frames) || [];
      goto((frame === null ? frames.length - 1 : frame) - 1);
    });
    $("next").addEventListener("click", () => {
      const frames = (live && live.frames) || [];
      if (frame !== null && frame + 1 >= frames.length - 1) { frame = null; shown = ""; showLive(); }
      else if (frame !== null) goto(frame + 1);
    });
    $("latest").addEventListener("click", () => { frame = null; shown = ""; showLive(); });
    const box = $("lines");
    // whether the reader follows the newest line (a resize or a new state keeps them there)
    box.addEventListener("scroll", () => {
      atStoryEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 24;
    });
    window.addEventListener("resize", () => {
      fit();
      if (!atStoryEnd) return;
      box.style.maxHeight = "";
      box.scrollTop = box.scrollHeight;
      snapStory();
    });
    connect();
  });
})();
"""

#: name -> (body, media type): everything the page loads besides itself.
ASSETS: dict[str, tuple[bytes, str]] = {
    "page.css": (CSS.encode(), "text/css; charset=utf-8"),
    "page.js": (JS.encode(), "text/javascript; charset=utf-8"),
}


def page(token: str) -> bytes:
    """The page, its assets' addresses carrying the token."""
    return PAGE.replace("{token}", escape(token, quote=True)).encode()
