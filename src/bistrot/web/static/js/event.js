// @ts-check
// Club events (docs/web.md, "Club events"): a duplicate Omi event of a club's. /events/new makes
// one (POST /api/events, by this browser's profile: its organiser; an optional start time);
// /e/<id> is the event (GET /api/events/<id>): its link to share, its pairs to join before the
// start, the organiser's Start (or its start time), then each player's next board (POST
// .../next: a seat token kept as the daily deal keeps its own, then the board's table), the live
// ranking, the boards played with their hands and every table's result, and the movement. The
// server shows no card of a board before the asker's pair has played it: the page shows what it
// is given.
import { h, clear, patch, toast, navLink } from "./dom.js";
import { t, plural, refusal, dateLocale } from "./i18n.js";
import { get, post } from "./api.js";
import { saveTable } from "./store.js";
import { shareBox } from "./qr.js";
import { shareUrl } from "./sharing.js";
import { parseCard, rankText, isRed, cardName, SUIT_SYMBOL } from "./cards.js";
import { ensureProfile, forgetProfile, NO_PROFILE } from "./profile.js";

/** How often the event is asked for again while it is not over, and a waiting player's next board. */
const POLL_MS = 3000;
const WAIT_POLL_MS = 2500;
const COMPASS = ["N", "E", "S", "W"];
/** The furthest ahead an event may be set to start (the server's club.MAX_AHEAD_S: 30 days). */
const MAX_AHEAD_MS = 30 * 86400 * 1000;

const eventPath = (id) => `/e/${encodeURIComponent(id)}`;

/** `send()` with this browser's profile: a name asked for first when it has none (or when the
 * server no longer knows its cookie). Undefined when the person closed the name dialog. */
async function withProfile(send) {
  if (!(await ensureProfile())) return undefined;
  try {
    return await send();
  } catch (error) {
    if (!NO_PROFILE.has(error.code)) throw error;
    forgetProfile();
    if (!(await ensureProfile())) return undefined;
    return send();
  }
}

/** A board's game: its seat token kept with the table (as the daily deal does), then its page. */
function openBoard(step, eventId, nav) {
  saveTable(step.table_id, { game: "omi", mode: "friends", event: eventId,
    seats: [{ seat: step.seat, token: step.token }] });
  nav(`/t/${step.table_id}`);
}

/** An event's start time as the server takes it (`starts_at`: seconds since 1970, UTC) from a
 * datetime-local field's value ("2026-12-06T19:30", the organiser's own local time, as an ISO
 * date-time without an offset is read); null for none, NaN for one that is no time.
 * @param {string} value
 * @returns {number | null} */
function startsAt(value) {
  return value ? new Date(value).getTime() / 1000 : null;
}

/** Why the page refuses a start time before sending it (the server's bounds: from now to 30 days
 * ahead), or null.
 * @param {number | null} seconds
 * @returns {string | null} */
function badStart(seconds) {
  if (seconds === null) return null;
  if (!Number.isFinite(seconds)) return t("reject.bad_start");
  const at = seconds * 1000;
  if (at < Date.now()) return t("event.starts_past");
  return at > Date.now() + MAX_AHEAD_MS ? t("reject.bad_start") : null;
}

/** /events/new: the event's name, its boards, the boards a round and an optional start time (in
 * the organiser's local time; none: the organiser starts it); a profile is asked for on sending,
 * as Play now and the daily deal ask for one. */
export function newEventPage(root, nav, topbar) {
  const values = { name: "", boards: 8, per_round: 2, starts: "" };
  let busy = false;
  const error = h("p", { class: "form-error", role: "alert", dataset: { testid: "event-error" } });

  async function submit(event) {
    event.preventDefault();
    if (busy) return;
    const starts = startsAt(values.starts);
    const wrong = badStart(starts);
    error.textContent = wrong || "";
    if (wrong) return;
    busy = true;
    const button = root.querySelector("[data-action=make-event]");
    if (button) button.disabled = true;
    /** @type {{game: string, boards: number, boards_per_round: number, name?: string, starts_at?: number}} */
    const body = { game: "omi", boards: Number(values.boards), boards_per_round: Number(values.per_round) };
    if (values.name.trim()) body.name = values.name.trim();
    if (starts !== null) body.starts_at = starts;
    try {
      const made = await withProfile(() => post("/api/events", body));
      if (made === undefined) error.textContent = t("event.needs_profile");
      else {
        nav(made.event_url || eventPath(made.event), { replace: true });
        return;
      }
    } catch (failure) {
      error.textContent = refusal(failure);
    }
    busy = false;
    if (button) button.disabled = false;
  }

  const field = (id, label, input, help) => h("div", { class: "field" }, h("label", { for: id }, label), input,
    help && h("small", { class: "hint" }, help));

  function draw() {
    document.title = `${t("event.new_title")} · bistrot`;
    clear(root);
    root.append(topbar(), h("section", { class: "page narrow event-page", dataset: { testid: "new-event" } },
      h("h1", {}, t("event.new_title")),
      h("p", { class: "lead" }, t("event.new_lead")),
      h("form", { onsubmit: submit },
        field("event-name", t("event.name"), h("input", { type: "text", id: "event-name", maxlength: "60", value: values.name,
          placeholder: t("event.name_placeholder"), oninput: (e) => { values.name = e.target.value; } })),
        field("event-boards", t("event.boards"), h("input", { type: "number", id: "event-boards", min: "4", max: "36",
          value: values.boards, required: true, oninput: (e) => { values.boards = e.target.value; } }), t("event.boards_help")),
        field("event-per-round", t("event.per_round"), h("input", { type: "number", id: "event-per-round", min: "1", max: "36",
          value: values.per_round, required: true, oninput: (e) => { values.per_round = e.target.value; } }),
        t("event.per_round_help")),
        // step "any": whole minutes in the picker, yet a time with seconds (typed, or a test's) is
        // no step mismatch for the browser to refuse.
        field("event-starts", t("event.starts"), h("input", { type: "datetime-local", id: "event-starts", step: "any",
          value: values.starts, oninput: (e) => { values.starts = e.target.value; } }), t("event.starts_help")),
        error,
        h("button", { type: "submit", class: "btn primary big", dataset: { action: "make-event" } }, t("event.make")))));
  }
  draw();
  return { rerender: draw };
}

/** A hand as text cards, suit by suit (its cards come sorted from the server). */
function handEl(cards) {
  return h("span", { class: "event-hand" }, cards.map((card) => {
    const { rank, suit } = parseCard(card);
    return h("span", { class: ["event-card", isRed(suit) && "red"], title: cardName(card) },
      rankText(rank), SUIT_SYMBOL[suit]);
  }));
}

/** /e/<id>: the event as this browser's profile may see it, asked for again every few seconds
 * until it is over (and never once the page is left). */
export function eventPage(root, eventId, nav, topbar) {
  let answer = null;
  let failed = null;
  let waiting = null;  // the last "wait" answer of POST .../next
  let done = false;  // POST .../next said "done"
  let busy = false;
  let gone = false;
  let timer = null;
  let waitTimer = null;
  const box = h("section", { class: "page event-page", dataset: { testid: "event" } });

  const api = (path) => `/api/events/${encodeURIComponent(eventId)}${path}`;

  async function load() {
    clearTimeout(timer);
    try {
      answer = await get(api(""));
      failed = null;
    } catch (error) {
      if (!answer) failed = refusal(error);
    }
    if (gone) return;
    draw();
    if (!answer || answer.status !== "over") timer = setTimeout(load, POLL_MS);
  }

  /** A button's request, with the profile it needs; the event again after it. */
  async function act(send) {
    if (busy) return;
    busy = true;
    draw();
    try {
      const result = await withProfile(send);
      if (result === undefined) toast(t("event.needs_profile"), "error", 6000);
    } catch (error) {
      toast(refusal(error), "error", 6000);
    } finally {
      busy = false;
    }
    if (!gone) await load();
  }

  async function next() {
    clearTimeout(waitTimer);
    let step;
    try {
      step = await withProfile(() => post(api("/next"), {}));
    } catch (error) {
      waiting = null;
      toast(refusal(error), "error", 6000);
      draw();
      return;
    }
    if (gone || step === undefined) return;
    if (step.status === "play") {
      waiting = null;
      openBoard(step, eventId, nav);
      return;
    }
    if (step.status === "wait") {
      waiting = step;
      waitTimer = setTimeout(next, WAIT_POLL_MS);
    } else {
      waiting = null;
      done = true;
    }
    draw();
  }

  const person = (p) => (p ? p.name || t("event.no_name") : null);
  const pairNames = (pair) => {
    if (!pair) return "";
    if (pair.computer) return t("event.computer");
    return pair.players.map((p) => person(p) || (answer.status === "open" ? t("event.free_place") : t("event.computer")))
      .join(" & ");
  };
  const pairOf = (n) => answer.pairs.find((p) => p.pair === n);

  /** The first board of my pair not over yet (the movement in order), or null. */
  function myNextBoard() {
    const mine = answer.me.pair;
    for (const s of answer.progress) {
      if (s.ns !== mine && s.ew !== mine) continue;
      const left = s.boards.find((b) => b.status !== "over");
      if (left) return left.board;
    }
    return null;
  }

  /** When an event taking pairs starts by itself: its time in the reader's language (and the
   * day, if not today), or, once that time has passed, that it starts with its second pair. */
  function startLine() {
    const a = answer;
    if (a.status !== "open" || a.starts_at === null) return null;
    const at = new Date(a.starts_at * 1000);
    let text;
    if (at.getTime() <= Date.now()) {
      text = a.pairs.length >= 2 ? t("event.starting") : t("event.starts_late");
    } else {
      const time = new Intl.DateTimeFormat(dateLocale(), { hour: "numeric", minute: "2-digit" }).format(at);
      text = at.toDateString() === new Date().toDateString()
        ? t("event.starts_at", { time })
        : t("event.starts_on", { time,
          date: new Intl.DateTimeFormat(dateLocale(), { weekday: "long", day: "numeric", month: "long" }).format(at) });
    }
    return h("p", { class: "hint", dataset: { testid: "event-starts" } }, text);
  }

  function header() {
    const a = answer;
    return [
      h("h1", {}, a.name),
      h("p", { class: "lead", dataset: { testid: "event-status" } },
        h("span", { class: ["badge", `event-${a.status}`] }, t(`event.status_${a.status}`)), " ",
        t("event.by", { name: a.organiser.name || t("event.no_name") })),
      h("p", { class: "hint" }, t("event.facts", { boards: a.boards, per_round: a.boards_per_round, rounds: a.rounds }),
        a.tables ? ` ${t("event.tables", { n: a.tables })}` : ""),
      startLine(),
    ];
  }

  function pairsSection() {
    const a = answer;
    const open = a.status === "open";
    const mine = a.me.pair;
    return h("section", { class: "event-pairs", "aria-labelledby": "event-pairs-title", dataset: { testid: "event-pairs" } },
      h("h2", { id: "event-pairs-title" }, t("event.pairs")),
      a.pairs.length ? h("ul", { class: "event-pair-list" }, a.pairs.map((p) => h("li", { dataset: { pair: String(p.pair) },
        class: p.pair === mine ? "mine" : null },
      h("strong", {}, t("event.pair_n", { n: p.pair })), " ", pairNames(p),
      open && mine === null && p.players.includes(null) && [" ", h("button", { type: "button", class: "btn small", disabled: busy,
        dataset: { action: "join-pair", pair: String(p.pair) },
        onclick: () => act(() => post(api("/join"), { pair: p.pair })) }, t("event.join_pair", { n: p.pair }))])))
        : h("p", { class: "hint" }, t("event.no_pairs")),
      open && h("div", { class: "event-actions" },
        mine === null
          ? h("button", { type: "button", class: "btn primary", disabled: busy, dataset: { action: "join-new" },
            onclick: () => act(() => post(api("/join"), {})) }, t("event.join_new"))
          : h("button", { type: "button", class: "btn", disabled: busy, dataset: { action: "leave" },
            onclick: () => act(() => post(api("/leave"), {})) }, t("event.leave")),
        a.me.organiser && h("button", { type: "button", class: "btn primary", disabled: busy, dataset: { action: "start" },
          onclick: () => act(() => post(api("/start"), {})) }, t("event.start"))),
      open && !a.me.organiser && a.starts_at === null && h("p", { class: "hint" }, t("event.organiser_starts")));
  }

  function playSection() {
    const a = answer;
    if (a.status === "open" || a.me.pair === null) return null;
    const board = myNextBoard();
    if (a.status === "over" || done || board === null) {
      return h("p", { class: "event-play", dataset: { testid: "event-done" } }, t("event.all_played"));
    }
    return h("div", { class: "event-play" },
      h("button", { type: "button", class: "btn primary big", disabled: busy || waiting !== null, dataset: { action: "play-board" },
        onclick: () => next() }, t("event.play_board", { n: board })),
      waiting && h("p", { class: "hint", role: "status", dataset: { testid: "event-waiting" } },
        plural("event.waiting_for", waiting.waiting_for.length, { pairs: waiting.waiting_for.join(", ") })));
  }

  function rankingSection() {
    const a = answer;
    if (!a.ranking.length) return null;
    return h("section", { "aria-labelledby": "event-ranking-title" },
      h("h2", { id: "event-ranking-title" }, t("event.ranking")),
      h("div", { class: "board-wrap" }, h("table", { class: "results board", dataset: { testid: "event-ranking" } },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, t("board.rank")), h("th", { scope: "col" }, t("event.pair")),
          h("th", { scope: "col", class: "board-name" }, t("event.players")),
          h("th", { scope: "col" }, t("event.points")), h("th", { scope: "col" }, "%"))),
        h("tbody", {}, a.ranking.map((r) => h("tr", { class: r.pair === a.me.pair ? "mine" : null, dataset: { pair: String(r.pair) } },
          h("td", {}, String(r.rank)), h("td", {}, String(r.pair)),
          h("th", { scope: "row", class: "board-name" }, pairNames(pairOf(r.pair))),
          // (no board of theirs compared yet: no score, rather than "0/0" and the 50 % it ranks by)
          h("td", {}, r.top ? `${r.points}/${r.top}` : "–"),
          h("td", { dataset: { testid: "percent" } }, r.top ? `${r.percent.toFixed(2)} %` : "–")))))));
  }

  function boardResult(r) {
    return h("article", { class: "event-board", dataset: { board: String(r.board), testid: "event-board" } },
      h("h3", {}, t("event.board_n", { n: r.board }), " · ", t("event.dealer", { compass: t(`event.compass_${r.dealer}`) })),
      h("dl", { class: "event-hands" }, COMPASS.filter((c) => r.hands[c]).map((c) => [
        h("dt", {}, t(`event.compass_${c}`)), h("dd", { dataset: { compass: c } }, handEl(r.hands[c]))])),
      h("div", { class: "board-wrap" }, h("table", { class: "results event-tables" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, t("event.table")), h("th", { scope: "col" }, t("event.ns")), h("th", { scope: "col" }, t("event.ew")),
          h("th", { scope: "col" }, t("event.tricks")), h("th", { scope: "col" }, t("event.matchpoints")),
          h("th", { scope: "col" }, h("span", { class: "sr-only" }, t("history.replay"))))),
        h("tbody", {}, r.tables.map((x) => h("tr", { dataset: { table: String(x.table) } },
          h("td", {}, String(x.table)), h("td", {}, String(x.ns)), h("td", {}, String(x.ew)),
          h("td", {}, `${x.ns_tricks}–${x.ew_tricks}`), h("td", {}, `${x.ns_points}–${x.ew_points}`),
          h("td", {}, navLink(nav, `/replay/${encodeURIComponent(x.table_id)}`, { dataset: { action: "replay" } },
            t("history.replay")))))))));
  }

  function resultsSection() {
    const a = answer;
    if (a.status === "open") return null;
    return h("section", { "aria-labelledby": "event-results-title", dataset: { testid: "event-results" } },
      h("h2", { id: "event-results-title" }, t("event.results")),
      a.results.length ? a.results.map(boardResult) : h("p", { class: "hint" }, t("event.no_results")));
  }

  function movementSection() {
    const a = answer;
    if (!a.progress.length) return null;
    return h("section", { class: "event-movement", "aria-labelledby": "event-movement-title", dataset: { testid: "event-movement" } },
      h("h2", { id: "event-movement-title" }, t("event.movement")),
      h("div", { class: "board-wrap" }, h("table", { class: "results" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, t("event.round")), h("th", { scope: "col" }, t("event.table")),
          h("th", { scope: "col" }, t("event.ns")), h("th", { scope: "col" }, t("event.ew")),
          h("th", { scope: "col" }, t("event.boards_col")))),
        h("tbody", {}, a.progress.map((s) => h("tr", {},
          h("td", {}, String(s.round)), h("td", {}, String(s.table)), h("td", {}, String(s.ns)), h("td", {}, String(s.ew)),
          h("td", {}, s.boards.map((b, i) => [i ? ", " : "",
            h("span", { dataset: { status: b.status } }, `${b.board} ${t(`event.board_${b.status}`)}`)]))))))));
  }

  function content() {
    if (failed) return [h("h1", {}, t("event.title")), h("p", { class: "offline-note", role: "alert" }, failed)];
    if (!answer) return [h("h1", {}, t("event.title")), h("p", { class: "hint" }, t("event.loading"))];
    document.title = `${answer.name} · bistrot`;
    return [
      ...header(),
      answer.status === "open" && shareBox(shareUrl(eventPath(eventId)), { title: t("event.share"), testId: "event-link" }),
      playSection(),
      pairsSection(),
      rankingSection(),
      resultsSection(),
      movementSection(),
    ].filter(Boolean);
  }

  function draw() {
    if (gone) return;
    // A redraw keeps what is equal (dom.js patch): the share box's field, a button under the pointer.
    patch(box, content());
  }

  function redraw() {
    clear(root);
    clear(box);
    root.append(topbar(), box);
    draw();
  }

  redraw();
  load();
  return {
    rerender: redraw,
    destroy: () => { gone = true; clearTimeout(timer); clearTimeout(waitTimer); },
  };
}
