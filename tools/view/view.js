// microsynth view: the page. It draws what the server sends over one
// websocket (docs/view.md); every rule of the game runs in the server.
// URL parameters run a scripted scenario and write its outcome into
// #result, which the browser test reads (tests/view/browser_test.py).
"use strict";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const COLORS = ["#1f5fbf", "#c0392b"];
const LIGHT = ["#d6e4fa", "#f7d9d5"];
const DX = [0, 1, 0, -1], DY = [-1, 0, 1, 0];

let ws = null;
let board = null;      // the last "map" message
let state = null;      // the last "state" message
let types = [];
let programs = {};     // player -> {rows: [tr...], lines}
let playing = false;
let mode = null;       // "live" or "replay"
let synth = null;      // the last "synth" message
let results = [];      // the tables and plots of --results DIR
let scenarioSought = false;

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

// "program:/long/path/x.ms" -> "program:x.ms": the board's labels stay short.
function shortName(spec) {
  return String(spec).replace(/^(program|switch|portfolio):.*\//, "$1:");
}

function showError(text) {
  const e = $("error");
  e.textContent = text;
  e.hidden = !text;
}

// A scenario's outcome: in the DOM, and told to the server, which prints it
// (the browser test reads it there: no virtual-time race with the socket).
function setResult(st, text) {
  const r = $("result");
  r.dataset.state = st;
  r.textContent = text;
  if (st !== "pending") send({ type: "report", text: `${params.get("tag") || ""} ${st} ${text}` });
}

// ---- the board ---------------------------------------------------------------

function cellSize() {
  return Math.max(4, Math.floor(Math.min(640 / board.width, 640 / board.height)));
}

function drawUnit(ctx, u, c) {
  const t = types[u.type] || { name: "?" };
  const x = u.x * c, y = u.y * c, m = c / 2;
  ctx.save();
  if (t.resource) {
    ctx.fillStyle = "#2e8b57";
    ctx.fillRect(x + 2, y + 2, c - 4, c - 4);
    ctx.fillStyle = "#fff";
    ctx.font = `${Math.max(8, c / 3)}px sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(String(u.r), x + m, y + m);
    ctx.restore();
    return;
  }
  const col = COLORS[u.p] || "#555";
  ctx.strokeStyle = col;
  ctx.lineWidth = Math.max(1, c / 16);
  if (!t.mobile) {
    ctx.fillStyle = LIGHT[u.p] || "#eee";
    ctx.fillRect(x + 2, y + 2, c - 4, c - 4);
    ctx.strokeRect(x + 2, y + 2, c - 4, c - 4);
    if (t.name === "Barracks") {
      ctx.beginPath();
      ctx.moveTo(x + 2, y + 2); ctx.lineTo(x + c - 2, y + c - 2);
      ctx.moveTo(x + c - 2, y + 2); ctx.lineTo(x + 2, y + c - 2);
      ctx.stroke();
    }
  } else {
    const r = t.name === "Worker" ? c * 0.22 : t.name === "Heavy" ? c * 0.4 : c * 0.32;
    ctx.fillStyle = col;
    ctx.beginPath();
    ctx.arc(x + m, y + m, r, 0, 2 * Math.PI);
    ctx.fill();
    if (t.name !== "Worker") {
      ctx.fillStyle = "#fff";
      ctx.font = `bold ${Math.max(8, c / 3)}px sans-serif`;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText(t.name[0], x + m, y + m + 1);
    }
  }
  if (u.r > 0 && !t.resource) {
    ctx.fillStyle = "#2e8b57";
    ctx.fillRect(x + c - c / 4 - 2, y + 2, c / 4, c / 4);
  }
  if (u.hp < t.hp) {
    ctx.fillStyle = "#333";
    ctx.fillRect(x + 3, y + c - 5, c - 6, 3);
    ctx.fillStyle = "#3c3";
    ctx.fillRect(x + 3, y + c - 5, (c - 6) * Math.max(0, u.hp) / t.hp, 3);
  }
  ctx.restore();
  if (u.a) drawAction(ctx, u, c);
}

function drawAction(ctx, u, c) {
  const a = u.a, m = c / 2, cx = u.x * c + m, cy = u.y * c + m;
  const done = a.eta > 0 ? Math.min(1, (state.time - a.at) / a.eta) : 1;
  ctx.save();
  ctx.lineWidth = Math.max(1, c / 14);
  if (a.k === "attack") {
    ctx.strokeStyle = "#e74c3c";
    ctx.beginPath();
    ctx.moveTo(cx, cy);
    ctx.lineTo(a.x * c + m, a.y * c + m);
    ctx.stroke();
  } else if (a.k !== "none" && a.d >= 0 && a.d < 4) {
    const tx = cx + DX[a.d] * c * 0.5, ty = cy + DY[a.d] * c * 0.5;
    ctx.strokeStyle = a.k === "move" ? "#222" : a.k === "produce" ? "#8e44ad" : "#2e8b57";
    ctx.setLineDash(a.k === "harvest" || a.k === "return" ? [3, 2] : []);
    ctx.beginPath();
    ctx.moveTo(cx, cy);
    ctx.lineTo(tx, ty);
    ctx.stroke();
    if (a.k === "produce") {
      ctx.strokeRect(u.x * c + DX[a.d] * c + 3, u.y * c + DY[a.d] * c + 3, (c - 6) * done, c - 6);
    }
  }
  ctx.restore();
}

function draw() {
  if (!board) return;
  const cv = $("board"), c = cellSize();
  cv.width = board.width * c;
  cv.height = board.height * c;
  const ctx = cv.getContext("2d");
  ctx.fillStyle = "#fbfbf8";
  ctx.fillRect(0, 0, cv.width, cv.height);
  for (let y = 0; y < board.height; y++)
    for (let x = 0; x < board.width; x++)
      if (board.terrain[y * board.width + x] === "1") {
        ctx.fillStyle = "#4a4e5a";
        ctx.fillRect(x * c, y * c, c, c);
      }
  ctx.strokeStyle = "#e6e6e0";
  ctx.lineWidth = 1;
  for (let i = 0; i <= board.width; i++) { ctx.beginPath(); ctx.moveTo(i * c + .5, 0); ctx.lineTo(i * c + .5, cv.height); ctx.stroke(); }
  for (let i = 0; i <= board.height; i++) { ctx.beginPath(); ctx.moveTo(0, i * c + .5); ctx.lineTo(cv.width, i * c + .5); ctx.stroke(); }
  if (state) for (const u of state.units) drawUnit(ctx, u, c);
}

// ---- the program beside the board -----------------------------------------------

function buildPrograms(list) {
  const box = $("programs");
  box.textContent = "";
  programs = {};
  for (const p of list || []) {
    const div = document.createElement("div");
    div.className = "program";
    div.id = `program-${p.player}`;
    const h = document.createElement("h3");
    h.textContent = `player ${p.player}: ${shortName(board.players[p.player])}`;
    h.style.color = COLORS[p.player];
    div.appendChild(h);
    const table = document.createElement("table");
    table.innerHTML = '<tr><th>line</th><th title="actions issued over the match">fired</th>' +
      '<th title="actions given to a unit still busy: nothing issued">busy</th><th></th></tr>';
    const rows = [];
    p.text.split("\n").forEach((line, i) => {
      const tr = document.createElement("tr");
      tr.innerHTML = `<td class="n">${i + 1}</td><td class="c f"></td><td class="c b"></td><td class="code"></td>`;
      tr.querySelector(".code").textContent = line;
      table.appendChild(tr);
      rows.push(tr);
    });
    div.appendChild(table);
    box.appendChild(div);
    programs[p.player] = { rows };
  }
}

function updatePrograms(list) {
  for (const p of list || []) {
    const pr = programs[p.player];
    if (!pr) continue;
    pr.rows.forEach((tr, i) => {
      if (i >= p.lines) return;
      const now = p.now[i];
      tr.className = now === 1 ? "fired" : now === 2 ? "busy" : "";
      tr.querySelector(".f").textContent = p.fired[i] ? p.fired[i] : "";
      tr.querySelector(".b").textContent = p.busy[i] ? p.busy[i] : "";
    });
  }
}

// ---- messages ------------------------------------------------------------------

function fillList(id, items) {
  const dl = $(id);
  dl.textContent = "";
  for (const it of items) {
    const o = document.createElement("option");
    o.value = it;
    dl.appendChild(o);
  }
}

function onHello(m) {
  fillList("maps", m.maps);
  fillList("players", m.bots.concat(m.programs));
  fillList("traces", m.traces);
  if (m.traces.length && !$("r-path").value) $("r-path").value = m.traces[0];
  $("s-files").textContent = m.follow.length ? "following " + m.follow.join(", ") : "no file followed (view --follow FILE)";
  results = m.results || [];
  const ul = $("res-list");
  ul.textContent = "";
  if (!results.length) ul.textContent = "no results (view --results DIR)";
  for (const name of results) {
    const li = document.createElement("li");
    li.textContent = name;
    li.dataset.name = name;
    li.onclick = () => send({ type: "result", name });
    ul.appendChild(li);
  }
  runScenario();
}

function onMap(m) {
  board = m;
  types = m.types;
  mode = m.mode;
  state = null;
  showError("");
  $("st-p0").textContent = "player 0: " + shortName(m.players[0]);
  $("st-p1").textContent = "player 1: " + shortName(m.players[1]);
  $("st-end").textContent = "";
  buildPrograms(m.programs);
  const sl = $("r-slider");
  sl.disabled = m.mode !== "replay";
  sl.min = m.start;
  sl.max = m.cycles;
  sl.value = m.start;
  draw();
}

function onState(m) {
  state = m;
  playing = !!m.playing;
  $("c-pause").textContent = playing ? "Pause" : "Play";
  $("st-time").textContent = "cycle " + m.time;
  $("st-p0").textContent = `player 0: ${shortName(board.players[0])}, ${m.resources[0]} resources`;
  $("st-p1").textContent = `player 1: ${shortName(board.players[1])}, ${m.resources[1]} resources`;
  if (m.over) $("st-end").textContent = m.winner < 0 ? "draw" : `player ${m.winner} wins`;
  else $("st-end").textContent = "";
  if (mode === "replay") {
    $("r-slider").value = m.time;
    $("r-cycle").textContent = `cycle ${m.time} of ${board.cycles}`;
  }
  updatePrograms(m.programs);
  draw();
  scenarioState(m);
}

function onSynth(m) {
  synth = m;
  $("s-evals").textContent = m.evals;
  $("s-rate").textContent = m.evals_per_s.toFixed(1);
  $("s-best").textContent = m.best >= 0 ? m.best.toFixed(4) : "-";
  $("s-seconds").textContent = m.seconds.toFixed(1) + " s";
  $("s-algo").textContent = m.algo || "-";
  $("s-seed").textContent = m.seed || "-";
  $("s-files").textContent = m.files.map((f) => `${f.path} (${f.kind})`).join(", ");
  $("s-program").textContent = m.program || "-";
  showBudget(m);
  showOpponents(m.opponents || []);
  showRanks(m.ranks || []);
  showSelfplay(m);
  const pts = m.points.length ? m.points : m.ckpt_points;
  chart($("s-best-chart"), pts.map((p) => [p[0], p[1]]), true);
  chart($("s-evals-chart"), m.rate.length ? m.rate : pts.map((p) => [p[0], p[2]]), false);
  let text = `evals=${m.evals} best=${m.best.toFixed(6)} points=${m.points.length}`;
  if (m.opponents && m.opponents.length)
    text += " wdl=" + m.opponents.map((o) => `${o.name}:${o.w ?? "-"}/${o.d ?? "-"}/${o.l ?? "-"}`).join(",");
  if (m.eta !== null && m.eta !== undefined) text += " eta=known";
  if (m.ranks && m.ranks.length) text += " ranks=" + m.ranks.map((r) => `${r.rank}:${r.tasks}`).join(",");
  if (m.iterations && m.iterations.length) text += ` iterations=${m.iterations.length} last_psi=${m.iterations[m.iterations.length - 1][2].toFixed(6)}`;
  if (m.outputs && m.outputs.length) text += ` outputs=${m.outputs.length}`;
  if (params.get("scenario") === "synth" && m.evals > 0 && $("result").textContent !== text) setResult("done", text);
}

function duration(s) {
  s = Math.round(s);
  return s >= 3600 ? `${Math.floor(s / 3600)} h ${Math.floor(s % 3600 / 60)} min`
    : s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

function showBudget(m) {
  const b = [];
  if (m.budget_evals) b.push(`${m.budget_evals} evaluations`);
  if (m.budget_seconds) b.push(duration(m.budget_seconds));
  $("s-budget").textContent = b.length ? b.join(" or ") : "-";
  $("s-eta").textContent = m.eta === null || m.eta === undefined ? "-" : m.eta > 0 ? duration(m.eta) : "done";
}

function fillRows(tbody, rows) {
  tbody.textContent = "";
  for (const r of rows) {
    const tr = document.createElement("tr");
    for (const c of r) {
      const td = document.createElement("td");
      td.textContent = c;
      tr.appendChild(td);
    }
    tbody.appendChild(tr);
  }
}

function showOpponents(opps) {
  $("s-opp-box").hidden = !opps.length;
  fillRows(document.querySelector("#s-opps tbody"), opps.map((o) => {
    const n = (o.w ?? 0) + (o.d ?? 0) + (o.l ?? 0);
    return [o.name, o.w ?? "-", o.d ?? "-", o.l ?? "-", n ? ((o.w + o.d / 2) / n).toFixed(3) : "-"];
  }));
}

function showRanks(ranks) {
  $("s-ranks-box").hidden = !ranks.length;
  const total = ranks.reduce((n, r) => n + r.tasks, 0);
  fillRows(document.querySelector("#s-ranks tbody"), ranks.map((r) =>
    [r.rank, r.tasks, r.eval_s.toFixed(1), total ? (r.tasks / total).toFixed(3) : "-"]));
}

function showSelfplay(m) {
  const it = m.iterations || [];
  $("s-selfplay-box").hidden = !it.length;
  fillRows(document.querySelector("#s-iters tbody"),
    it.map((r) => [r[0], r[1].toFixed(1), r[2].toFixed(4), r[3].toFixed(4), r[4]]));
  $("s-pop").textContent = m.population || "-";
  const box = $("s-outputs");
  box.textContent = "";
  for (const o of m.outputs || []) {
    const h = document.createElement("h3");
    h.textContent = o.path;
    const pre = document.createElement("pre");
    pre.className = "code";
    pre.textContent = o.text;
    box.append(h, pre);
  }
}

// CSV (RFC 4180 quotes) into rows of cells.
function parseCsv(text) {
  const rows = [];
  let row = [], cell = "", q = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (q) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; }
      else if (c === '"') q = false;
      else cell += c;
    } else if (c === '"') q = true;
    else if (c === ",") { row.push(cell); cell = ""; }
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(cell); rows.push(row); row = []; cell = "";
    } else cell += c;
  }
  if (cell !== "" || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

// A results page: a table rendered as HTML, a plot as an image (its scripts, if any, never run).
function onResult(m) {
  for (const li of document.querySelectorAll("#res-list li")) li.classList.toggle("active", li.dataset.name === m.name);
  $("res-name").textContent = m.name;
  const body = $("res-body");
  body.textContent = "";
  let summary;
  if (m.kind === "svg") {
    const img = document.createElement("img");
    img.alt = m.name;
    img.src = URL.createObjectURL(new Blob([m.text], { type: "image/svg+xml" }));
    body.appendChild(img);
    summary = `kind=svg bytes=${m.text.length}`;
  } else {
    const rows = parseCsv(m.text);
    const t = document.createElement("table");
    t.className = "grid";
    rows.forEach((r, i) => {
      const tr = document.createElement("tr");
      for (const c of r) {
        const td = document.createElement(i ? "td" : "th");
        td.textContent = c;
        tr.appendChild(td);
      }
      t.appendChild(tr);
    });
    body.appendChild(t);
    summary = `kind=csv rows=${t.rows.length} cols=${rows.length ? rows[0].length : 0} first=${rows.length > 1 ? rows[1][0] : ""}`;
  }
  if (params.get("scenario") === "results") setResult("done", `name=${m.name} ${summary}`);
}

// A step chart (best so far) or a line chart, axes from zero.
function chart(cv, pts, steps) {
  const ctx = cv.getContext("2d"), W = cv.width, H = cv.height, L = 50, B = 24;
  ctx.clearRect(0, 0, W, H);
  if (!pts.length) return;
  const xmax = Math.max(1e-9, ...pts.map((p) => p[0]) , synth ? synth.seconds : 0);
  const ymax = Math.max(1e-9, ...pts.map((p) => p[1]));
  const X = (v) => L + (W - L - 10) * v / xmax, Y = (v) => H - B - (H - B - 10) * v / ymax;
  ctx.strokeStyle = "#999";
  ctx.beginPath(); ctx.moveTo(L, 10); ctx.lineTo(L, H - B); ctx.lineTo(W - 10, H - B); ctx.stroke();
  ctx.fillStyle = "#555";
  ctx.font = "11px sans-serif";
  ctx.fillText(ymax.toPrecision(3), 2, 16);
  ctx.fillText("0", L - 10, H - B);
  ctx.fillText(xmax.toFixed(0) + " s", W - 40, H - 6);
  ctx.strokeStyle = "#1f5fbf";
  ctx.lineWidth = 2;
  ctx.beginPath();
  pts.forEach((p, i) => {
    if (!i) ctx.moveTo(X(p[0]), Y(p[1]));
    else if (steps) { ctx.lineTo(X(p[0]), Y(pts[i - 1][1])); ctx.lineTo(X(p[0]), Y(p[1])); }
    else ctx.lineTo(X(p[0]), Y(p[1]));
  });
  if (steps && synth) ctx.lineTo(X(synth.seconds), Y(pts[pts.length - 1][1]));
  ctx.stroke();
}

function onMessage(ev) {
  let m;
  try { m = JSON.parse(ev.data); } catch (e) { showError("the server sent something that is not JSON"); return; }
  if (m.type === "hello") onHello(m);
  else if (m.type === "map") onMap(m);
  else if (m.type === "state") onState(m);
  else if (m.type === "synth") onSynth(m);
  else if (m.type === "result") onResult(m);
  else if (m.type === "error") {
    showError(m.message);
    if (params.get("scenario")) setResult("error", "error=" + m.message);
  }
}

function connect() {
  ws = new WebSocket(`ws://${location.host}/`, "microsynth-view");
  ws.onopen = () => { $("conn").textContent = "connected"; };
  ws.onclose = () => { $("conn").textContent = "disconnected"; };
  ws.onerror = () => { $("conn").textContent = "connection failed"; };
  ws.onmessage = onMessage;
}

// ---- controls --------------------------------------------------------------------

function speed() {
  return Number($("c-speed").value);
}

function wire() {
  for (const b of document.querySelectorAll(".tab"))
    b.onclick = () => {
      for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t === b);
      for (const id of ["match", "replay", "synth", "results"]) $("tab-" + id).hidden = id !== b.dataset.tab;
      $("board-area").hidden = b.dataset.tab === "synth" || b.dataset.tab === "results";
      if (b.dataset.tab === "synth") send({ type: "follow" });
    };
  $("match-form").onsubmit = (e) => {
    e.preventDefault();
    send({ type: "play", map: $("m-map").value, p0: $("m-p0").value, p1: $("m-p1").value,
      seed: Number($("m-seed").value), max_cycles: Number($("m-max").value), speed: speed() });
  };
  $("replay-form").onsubmit = (e) => {
    e.preventDefault();
    send({ type: "replay", path: $("r-path").value, speed: speed() });
  };
  $("r-slider").oninput = () => send({ type: "seek", cycle: Number($("r-slider").value) });
  $("c-pause").onclick = () => send({ type: playing ? "pause" : "resume" });
  $("c-step").onclick = () => send({ type: "step", cycles: 1 });
  $("c-back").onclick = () => send({ type: "step", cycles: -1 });
  $("c-speed").onchange = () => send({ type: "speed", speed: speed() });
  $("s-follow").onclick = () => send({ type: "follow" });
}

// ---- scripted scenarios (the browser test) -------------------------------------------

function runScenario() {
  const sc = params.get("scenario");
  if (!sc) return;
  setResult("pending", "");
  if (sc === "live") {
    $("m-map").value = params.get("map");
    $("m-p0").value = params.get("p0");
    $("m-p1").value = params.get("p1");
    // at=N: stop at cycle N (a still for a screenshot), else play to the end at full speed
    const at = params.get("at");
    send({ type: "play", map: params.get("map"), p0: params.get("p0"), p1: params.get("p1"),
      seed: Number(params.get("seed") || 0), max_cycles: Number(params.get("max_cycles") || 5000),
      speed: Number(params.get("speed") || 0),
      paused: at !== null });
    if (at !== null) send({ type: "step", cycles: Number(at) });
  } else if (sc === "replay") {
    document.querySelector('.tab[data-tab="replay"]').click();
    $("r-path").value = params.get("path");
    send({ type: "replay", path: params.get("path") });
  } else if (sc === "synth") {
    document.querySelector('.tab[data-tab="synth"]').click();
  } else if (sc === "results") {
    document.querySelector('.tab[data-tab="results"]').click();
    const name = params.get("name") || results[0];
    if (name) send({ type: "result", name });
    else setResult("done", "results=0");
  } else if (sc === "bad") {
    ws.send("{this is not json");
  }
}

function scenarioState(m) {
  const sc = params.get("scenario");
  if (sc === "live" && (m.over || (params.get("at") !== null && m.time === Number(params.get("at"))))) {
    setResult("done", m.over ? `winner=${m.winner} cycles=${m.time}` : `time=${m.time}`);
  } else if (sc === "replay") {
    const want = Number(params.get("cycle") || 0);
    if (m.time !== want && !scenarioSought) {
      scenarioSought = true;
      send({ type: "seek", cycle: want });
      return;
    }
    const units = m.units.map((u) => `${u.id},${types[u.type].name},${u.p},${u.x},${u.y},${u.hp}`);
    setResult("done", `time=${m.time} units=${units.join(";")}`);
  }
}

wire();
connect();
