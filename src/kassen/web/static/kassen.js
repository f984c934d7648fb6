/* kassen: the table's glue. No build step, no framework: htmx renders the partials, this file holds the
 * token (from the address's #t=... fragment, which browsers never send to a server), puts it in the
 * Authorization header of every request, posts the JSON actions, and follows the fight's event stream so
 * that every open screen shows a new state within a second. */
(function () {
  "use strict";

  var body = document.body;
  var page = body.dataset.page;
  var fight = body.dataset.fight || "";
  var role = body.dataset.role || "";
  var TOKEN = /^[A-Za-z0-9_-]{43}$/;
  var token = null;
  // the page's words in its reader's language (English: the text below as it is)
  var WORDS = {};
  try { WORDS = JSON.parse(body.dataset.words || "{}") || {}; } catch (err) { WORDS = {}; }
  var LANG = document.documentElement.lang || "en";
  function t(text, values) {
    var out = Object.prototype.hasOwnProperty.call(WORDS, text) ? WORDS[text] : text;
    return out.replace(/\{([a-z_]+)\}/g, function (all, name) {
      return values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : all;
    });
  }

  function say(text, kind) {
    var box = document.getElementById("notice");
    if (!box) return;
    box.textContent = text || "";
    box.className = "notice" + (kind ? " " + kind : "") + (text ? " shown" : "");
  }

  function gmKey(id) { return "kassen.gm." + id; }

  function tokenFrom(text) {
    var m = String(text || "").match(/[#&?]t=([A-Za-z0-9_-]{43})/);
    if (m) return m[1];
    text = String(text || "").trim();
    return TOKEN.test(text) ? text : null;
  }

  function readToken() {
    var found = tokenFrom(location.hash);
    var key = "kassen." + role + "." + fight;
    if (found) {
      sessionStorage.setItem(key, found);
      if (role === "gm") localStorage.setItem(gmKey(fight), found);
      return found;
    }
    return sessionStorage.getItem(key) || (role === "gm" ? localStorage.getItem(gmKey(fight)) : null);
  }

  async function api(method, url, data, raw) {
    var headers = { "Accept-Language": LANG };  // a refusal's words in the page's language
    if (token) headers["Authorization"] = "Bearer " + token;
    var init = { method: method, headers: headers, credentials: "omit", cache: "no-store" };
    if (data !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = raw ? data : JSON.stringify(data);
    }
    var response;
    try {
      response = await fetch(url, init);
    } catch (err) {
      return { ok: false, status: 0, json: { detail: t("the server cannot be reached") } };
    }
    var json = null;
    try { json = await response.json(); } catch (err) { json = null; }
    return { ok: response.ok, status: response.status, json: json };
  }

  function detail(result) {
    var j = result.json || {};
    var text = j.detail || t("the server answered {status}", { status: result.status });
    if (Array.isArray(j.errors) && j.errors.length > 1) {
      text += "\n" + j.errors.map(function (e) {
        return (e.line ? t("line {line}", { line: e.line }) + ", " : "") + (e.field || (e.loc || []).join(".")) + ": " + e.message;
      }).join("\n");
    }
    return text;
  }

  function screenRoot() { return document.querySelector("#screen .screen"); }

  // One screen request at a time. A refresh asked while one is on its way waits for it, and then runs
  // only if it is still needed: the action's reply and the stream's news of the same state each ask for
  // the screen, and the second used to abort the first (hx-sync replace), fetching it twice and logging
  // an aborted request. ``wanted``: null (nothing waits), true (refresh after this one), or the stream's
  // news (refresh if the new screen still differs from it).
  var loading = false;
  var wanted = null;

  function refresh() {
    if (loading) { wanted = true; return; }
    if (window.htmx) window.htmx.trigger(body, "kassen:refresh");
  }

  function differs(news) {
    var root = screenRoot();
    if (!root) return false;
    // a side's stream carries no state id (its screen holds its own view's): the seq says what is new
    return (news.state_id !== undefined && root.dataset.stateId !== news.state_id) ||
      String(root.dataset.seq) !== String(news.seq) ||
      (root.dataset.pending === "1") !== Boolean(news.pending);
  }

  function isScreen(event) { return Boolean(event.detail.target && event.detail.target.id === "screen"); }

  document.addEventListener("htmx:beforeRequest", function (event) { if (isScreen(event)) loading = true; });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!isScreen(event)) return;
    loading = false;
    var waiting = wanted;
    wanted = null;
    if (waiting === true || (waiting && differs(waiting))) refresh();
  });

  function openFight(created) {
    localStorage.setItem(gmKey(created.id), created.gm_token);
    location.href = "/fights/" + created.id + "#t=" + created.gm_token;
  }

  // -- the fight list: new fight, import -----------------------------------------------------------------
  function readFile(input) {
    return new Promise(function (resolve, reject) {
      var file = input.files && input.files[0];
      if (!file) { resolve(null); return; }
      var reader = new FileReader();
      reader.onload = function () { resolve(String(reader.result)); };
      reader.onerror = function () { reject(reader.error); };
      reader.readAsText(file);
    });
  }

  function setupIndex() {
    var form = document.getElementById("new-fight");
    var fileInput = document.getElementById("scenario-file");
    var text = document.getElementById("scenario-text");
    if (fileInput) {
      fileInput.addEventListener("change", async function () {
        var content = await readFile(fileInput);
        if (content !== null) {
          text.value = content;
          document.getElementById("source-own").checked = true;
        }
      });
    }
    if (text) {
      text.addEventListener("input", function () {
        document.getElementById("source-own").checked = true;
        showSides();
      });
    }
    // who plays each side: a row per side of the bundled scenario chosen; a scenario of one's own takes
    // side=spec pairs typed in
    var rows = document.getElementById("side-policies");
    var rowTemplate = document.getElementById("side-policy-row");
    var ownPolicies = document.getElementById("own-policies");
    function showSides() {
      if (!rows || !rowTemplate) return;
      var own = document.getElementById("source-own").checked;
      rows.textContent = "";
      ownPolicies.hidden = !own;
      if (own) return;
      var chosen = document.getElementById("scenario-name").selectedOptions[0];
      var sides = chosen && chosen.dataset.sides ? chosen.dataset.sides.split(",") : [];
      sides.forEach(function (side, i) {
        var row = rowTemplate.content.firstElementChild.cloneNode(true);
        var label = row.querySelector("label");
        var select = row.querySelector("select");
        select.id = "new-policy-" + i;
        select.dataset.side = side;
        label.htmlFor = select.id;
        label.textContent = side;
        rows.appendChild(row);
      });
    }
    ["scenario-name", "source-bundled", "source-own"].forEach(function (id) {
      var el = document.getElementById(id);
      if (el) el.addEventListener("change", showSides);
    });
    showSides();
    function chosenPolicies() {
      var out = {};
      if (document.getElementById("source-own").checked) {
        var typed = document.getElementById("policies-text").value.trim();
        if (!typed) return { policies: out };
        // pairs are separated by ";" (a spec's own parameters are separated by commas)
        var parts = typed.split(";");
        for (var i = 0; i < parts.length; i++) {
          var pair = parts[i].trim();
          if (!pair) continue;
          var at = pair.indexOf("=");
          if (at <= 0) return { error: t("write each side's policy as side=spec: {pair}", { pair: JSON.stringify(pair.slice(0, 40)) }) };
          out[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
        }
        return { policies: out };
      }
      document.querySelectorAll("#side-policies select.side-policy").forEach(function (select) {
        if (select.value) out[select.dataset.side] = select.value;
      });
      return { policies: out };
    }
    if (form) {
      form.addEventListener("submit", async function (event) {
        event.preventDefault();
        var errors = document.getElementById("new-errors");
        errors.textContent = "";
        var own = document.getElementById("source-own").checked;
        var payload = {
          scenario: own ? text.value : document.getElementById("scenario-name").value,
          dice: document.getElementById("dice-table").checked ? "table" : "auto"
        };
        var seed = document.getElementById("seed").value.trim();
        if (seed !== "") {
          if (!/^\d{1,20}$/.test(seed)) { errors.textContent = t("a seed is a whole number"); return; }
          payload.seed = Number(seed);
          if (!Number.isSafeInteger(payload.seed)) { errors.textContent = t("that seed is too large for this page"); return; }
        }
        if (!payload.scenario) { errors.textContent = t("choose a scenario, or paste one"); return; }
        var named = chosenPolicies();
        if (named.error) { errors.textContent = named.error; return; }
        if (Object.keys(named.policies).length) payload.policies = named.policies;
        var result = await api("POST", "/api/fights", payload);
        if (result.ok) { openFight(result.json); return; }
        errors.textContent = detail(result);
      });
    }
    var importForm = document.getElementById("import-fight");
    if (importForm) {
      importForm.addEventListener("submit", async function (event) {
        event.preventDefault();
        var errors = document.getElementById("import-errors");
        errors.textContent = "";
        var content = await readFile(document.getElementById("import-file"));
        if (content === null) { errors.textContent = t("choose a chronicle file"); return; }
        var result = await api("POST", "/api/fights/import", content, true);
        if (result.ok) { openFight(result.json); return; }
        errors.textContent = detail(result);
      });
    }
    // The list names no fight (a title is the GM's to tell): the fights this browser opened show theirs,
    // read with their own GM token.
    document.querySelectorAll(".fight-link").forEach(function (link) {
      var id = link.dataset.fightId;
      var known = localStorage.getItem(gmKey(id));
      if (!known) return;
      link.href = "/fights/" + id + "#t=" + known;
      fetch("/api/fights/" + id + "?log=false", {
        headers: { "Authorization": "Bearer " + known }, credentials: "omit", cache: "no-store"
      }).then(function (r) { return r.ok ? r.json() : null; }).then(function (view) {
        if (!view) return;
        var facts = view.fight || {};
        link.textContent = facts.name || view.scenario || link.textContent;
        link.classList.add("fight-name");
        manageControls(link.closest("li"), id, known, facts);
      }).catch(function () {});
    });
  }

  // The GM's controls of a fight this browser holds the GM token of: rename, archive, delete.
  function manageControls(item, id, gmToken, facts) {
    if (!item || item.querySelector("details.manage")) return;
    var box = document.createElement("details");
    box.className = "manage";
    var summary = document.createElement("summary");
    summary.textContent = t("rename, archive, delete");
    box.appendChild(summary);
    var form = document.createElement("form");
    var input = document.createElement("input");
    input.type = "text";
    input.maxLength = 200;
    input.value = facts.name || "";
    input.setAttribute("aria-label", t("The fight's name"));
    input.className = "rename-input";
    var rename = document.createElement("button");
    rename.type = "submit";
    rename.textContent = t("Rename");
    var archive = document.createElement("button");
    archive.type = "button";
    archive.className = "archive";
    archive.textContent = facts.archived ? t("Bring back") : t("Archive");
    var remove = document.createElement("button");
    remove.type = "button";
    remove.className = "delete";
    remove.textContent = t("Delete…");
    form.append(input, rename, archive, remove);
    box.appendChild(form);
    item.appendChild(box);
    async function change(payload) {
      token = gmToken;
      var result = await api("PATCH", "/api/fights/" + id, payload);
      token = null;
      if (!result.ok) { say(detail(result), "error"); return false; }
      return true;
    }
    form.addEventListener("submit", async function (event) {
      event.preventDefault();
      if (await change({ name: input.value })) location.reload();
    });
    archive.addEventListener("click", async function () {
      if (await change({ archived: !facts.archived })) location.reload();
    });
    remove.addEventListener("click", async function () {
      if (!window.confirm(t("Delete {name}? Its log and links are gone for good.", { name: facts.name || t("this fight") }))) return;
      token = gmToken;
      var result = await api("DELETE", "/api/fights/" + id);
      token = null;
      if (!result.ok) { say(detail(result), "error"); return; }
      localStorage.removeItem(gmKey(id));
      location.reload();
    });
  }

  // -- replacing links (the GM's links panel) ---------------------------------------------------------------
  async function rotate(which) {
    var result = await api("POST", "/api/fights/" + fight + "/tokens", { rotate: which });
    if (!result.ok) { say(detail(result), "error"); return; }
    if (result.json.gm_token) {  // every token replaced: this screen goes on with the new GM token
      token = result.json.gm_token;
      sessionStorage.setItem("kassen." + role + "." + fight, token);
      localStorage.setItem(gmKey(fight), token);
      history.replaceState(null, "", "#t=" + token);
    }
    if (window.htmx) window.htmx.ajax("GET", "/ui/fights/" + fight + "/links", { target: "#links" });
    say(which === "all" ? t("every link replaced: send the new ones") : t("a new link: send it"), "ok");
  }

  // -- a fight's screen -------------------------------------------------------------------------------------
  async function post(url, payload, withState) {
    var root = screenRoot();
    var seqBefore = root ? root.dataset.seq : null;
    if (withState) payload.state_id = root ? root.dataset.stateId : "";
    var result = await api("POST", url, payload);
    if (result.ok) {
      if (result.json && result.json.gm_token) {  // a fork: the new fight opens in its own tab
        localStorage.setItem(gmKey(result.json.id), result.json.gm_token);
        var opened = window.open("/fights/" + result.json.id + "#t=" + result.json.gm_token, "_blank", "noopener");
        say(opened ? t("forked: the new fight opened in a new tab") : t("forked: {link}", { link: result.json.links.gm }), "ok");
        return;
      }
      say("", "");
      var view = result.json && result.json.view;
      // a new state: its news, as the stream tells it too, fetched once whichever asks first; the same
      // state (some of an action's dice typed: the prompt changed, not the state) is fetched again
      if (view && result.json.seq !== undefined && String(result.json.seq) !== String(seqBefore)) {
        news({ state_id: view.state_id, seq: result.json.seq, pending: Boolean(view.pending) });
      } else {
        refresh();
      }
      return;
    }
    if (result.status === 409) {
      say(t("{detail} (the screen is up to date now)", { detail: detail(result) }), "warn");
      refresh();
      return;
    }
    say(detail(result), "error");
  }

  function parseFaces(text) {
    // a Japanese keyboard types full-width digits, spaces and commas (１　２、３): the same faces
    var words = String(text).normalize("NFKC").replace(/、/g, ",").trim().split(/[\s,]+/).filter(function (w) { return w.length > 0; });
    if (!words.length) return { error: t("type the faces rolled, separated by spaces (or auto)") };
    var faces = [];
    for (var i = 0; i < words.length; i++) {
      var w = words[i].toLowerCase();
      if (w === "auto") { faces.push(null); continue; }
      if (!/^\d{1,4}$/.test(w)) return { error: t("{word} is not a face (a whole number, or auto)", { word: JSON.stringify(words[i].slice(0, 20)) }) };
      faces.push(Number(w));
    }
    return { faces: faces };
  }

  async function exportLog(url) {
    var headers = { "Authorization": "Bearer " + token };
    var response = await fetch(url, { headers: headers, cache: "no-store", credentials: "omit" });
    if (!response.ok) { say(t("the chronicle cannot be exported ({status})", { status: response.status }), "error"); return; }
    var blob = await response.blob();
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = "kassen-" + fight + ".json";
    document.body.appendChild(link);
    link.click();
    setTimeout(function () { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
  }

  function follow() {
    var delay = 500;
    async function loop() {
      for (;;) {
        try {
          var response = await fetch("/api/fights/" + fight + "/stream", {
            headers: { "Authorization": "Bearer " + token, "Accept": "text/event-stream" },
            cache: "no-store",
            credentials: "omit"
          });
          if (response.status === 401 || response.status === 403 || response.status === 404) {
            body.dataset.live = "off";
            return;
          }
          if (!response.ok || !response.body) throw new Error("stream " + response.status);
          body.dataset.live = "on";
          online();
          delay = 500;
          var reader = response.body.getReader();
          var decoder = new TextDecoder();
          var buffer = "";
          for (;;) {
            var chunk = await reader.read();
            if (chunk.done) break;
            buffer += decoder.decode(chunk.value, { stream: true });
            var cut;
            while ((cut = buffer.indexOf("\n\n")) >= 0) {
              handle(buffer.slice(0, cut));
              buffer = buffer.slice(cut + 2);
            }
          }
        } catch (err) { /* reconnect below */ }
        body.dataset.live = "off";
        offline();
        await new Promise(function (resolve) { setTimeout(resolve, delay); });
        delay = Math.min(delay * 2, 3000);
      }
    }
    loop();
  }

  // -- the server away: a banner, and no menu to click until it is back ---------------------------------
  var away = false;
  function lockScreen(locked) {
    document.querySelectorAll("#screen button, #screen input, #screen select, #links button").forEach(function (el) {
      if (locked && !el.disabled) { el.disabled = true; el.dataset.offline = "1"; }
      if (!locked && el.dataset.offline) { el.disabled = false; delete el.dataset.offline; }
    });
  }
  function offline() {
    var banner = document.getElementById("offline");
    if (banner) banner.hidden = false;
    body.classList.add("away");
    if (!away) { away = true; }
    lockScreen(true);
  }
  function online() {
    var banner = document.getElementById("offline");
    if (banner) banner.hidden = true;
    body.classList.remove("away");
    if (away) {
      away = false;
      lockScreen(false);
      refresh();  // whatever happened meanwhile
    }
  }

  // -- a player's turn: said on the screen, in the tab's title, and by a buzz where the phone has one -------
  var wasMine = false;
  var baseTitle = document.title;
  function cueTurn() {
    var root = screenRoot();
    var mine = Boolean(root && role === "player" && root.dataset.decide === "1" && root.dataset.over !== "1");
    document.title = mine ? t("● your turn — {title}", { title: baseTitle }) : baseTitle;
    if (mine && !wasMine && navigator.vibrate) {
      try { navigator.vibrate([180, 90, 180]); } catch (err) { /* not allowed here */ }
    }
    wasMine = mine;
  }

  // -- the turn order folds on a phone's player screen: the menu comes first -------------------------------
  function foldOrder() {
    var box = document.querySelector("#screen details.order-box");
    if (!box) return;
    var chosen = sessionStorage.getItem("kassen.fold.order");
    var narrow = window.matchMedia && window.matchMedia("(max-width: 600px)").matches;
    var want = chosen === "open" ? true : chosen === "closed" ? false : !(narrow && role === "player");
    if (box.open !== want) { box.dataset.auto = "1"; box.open = want; }
    box.addEventListener("toggle", function () {
      if (box.dataset.auto) { delete box.dataset.auto; return; }  // folded by the page, not the reader
      sessionStorage.setItem("kassen.fold.order", box.open ? "open" : "closed");
    });
  }

  // -- number keys choose the options of the menu on screen -----------------------------------------------
  function numberKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || away) return;
    var t = event.target;
    if (t && t.closest && t.closest("input, textarea, select, dialog[open]")) return;
    if (!/^[1-9]$/.test(event.key)) return;
    var option = document.querySelector('#screen .menu [data-keys] button[data-key="' + event.key + '"]:not([disabled])');
    if (!option) return;
    event.preventDefault();
    body.dataset.focus = "menu";
    option.focus();
    var deeper = option.getAttribute("hx-get");
    // a step deeper is fetched here, not by a click: a screen swapped in a moment ago may not have
    // been wired by htmx yet
    if (deeper && window.htmx) window.htmx.ajax("GET", deeper, { target: "#screen" });
    else option.click();
  }

  // -- a rule ID opens its text (what `kassen rules ID` prints) ------------------------------------------------
  async function showRule(id) {
    var dialog = document.getElementById("rule-dialog");
    if (!dialog) return;
    var result = await api("GET", "/ui/rules/" + encodeURIComponent(id));  // in the page's language
    document.getElementById("rule-title").textContent = result.ok ? result.json.id + " — " + result.json.title : id;
    document.getElementById("rule-text").textContent = result.ok ? result.json.text : detail(result);
    document.getElementById("rule-source").textContent = result.ok ? result.json.ruleset + " · " + result.json.kind : "";
    if (!dialog.open) dialog.showModal();
  }

  function handle(block) {
    var data = null;
    block.split("\n").forEach(function (line) {
      if (line.indexOf("data:") === 0) {
        try { data = JSON.parse(line.slice(5)); } catch (err) { data = null; }
      }
    });
    if (data) news(data);
  }

  // What the screen should show now (a state's id, seq and whether dice wait): fetched unless it does,
  // judged once the screen on its way (if any) is in.
  function news(data) {
    if (loading) { if (wanted !== true) wanted = data; return; }
    if (differs(data)) refresh();
  }

  function setupTable() {
    token = readToken();
    var form = document.getElementById("token-form");
    if (!token) {
      form.hidden = false;
      document.getElementById("screen").hidden = true;
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var found = tokenFrom(document.getElementById("token-input").value);
        if (!found) { say(t("that is not a kassen link or token"), "error"); return; }
        location.hash = "t=" + found;
        location.reload();
      });
      return;
    }
    document.addEventListener("htmx:configRequest", function (event) {
      event.detail.headers["Authorization"] = "Bearer " + token;
    });
    document.addEventListener("htmx:responseError", function (event) {
      var xhr = event.detail.xhr;
      var text = t("the server answered {status}", { status: xhr.status });
      try { text = JSON.parse(xhr.responseText).detail || text; } catch (err) { /* keep */ }
      say(text, "error");
    });
    document.addEventListener("htmx:sendError", function () { offline(); });
    document.addEventListener("keydown", numberKey);
    document.addEventListener("htmx:afterSwap", function (event) {
      if (event.detail.target && event.detail.target.id === "screen") {
        cueTurn();
        foldOrder();
        if (away) lockScreen(true);
        var active = document.activeElement;
        if (!active || active === body || !document.contains(active)) {
          var first = document.querySelector("#screen #faces, #screen .options button:not([disabled])");
          if (first && body.dataset.focus === "menu") first.focus();
        }
      }
    });
    document.addEventListener("click", function (event) {
      var rule = event.target.closest("button.rule[data-rule]");
      if (rule) { event.preventDefault(); showRule(rule.dataset.rule); return; }
      var target = event.target.closest("[data-post], [data-export], [data-copy], [data-rotate]");
      if (!target || target.disabled) return;
      event.preventDefault();
      if (target.dataset.export) { exportLog(target.dataset.export); return; }
      if (target.dataset.rotate) { rotate(target.dataset.rotate); return; }
      if (target.dataset.copy) {
        var field = document.getElementById(target.dataset.copy);
        if (field) {
          field.select();
          if (navigator.clipboard) navigator.clipboard.writeText(field.value).catch(function () {});
          say(t("copied"), "ok");
        }
        return;
      }
      body.dataset.focus = target.closest(".menu, .dice") ? "menu" : "";
      var payload = JSON.parse(target.dataset.body || "{}");
      post(target.dataset.post, payload, target.hasAttribute("data-with-state"));
    });
    document.addEventListener("keydown", function (event) {
      if (event.target.closest && event.target.closest(".options") && event.key === "Enter") {
        body.dataset.focus = "menu";
      }
    });
    document.addEventListener("submit", async function (event) {
      var who = event.target.closest("[data-policies-form]");
      if (who) {
        event.preventDefault();
        var policies = {};
        who.querySelectorAll("select.side-policy").forEach(function (select) {
          if (select.value) policies[select.dataset.side] = select.value;
        });
        var done = await api("PUT", who.dataset.policiesUrl, { policies: policies });
        if (done.ok) { say(t("who plays each side: saved"), "ok"); refresh(); }
        else say(detail(done), "error");
        return;
      }
      var form = event.target.closest("[data-dice-form]");
      if (!form) return;
      event.preventDefault();
      var parsed = parseFaces(form.querySelector("input").value);
      if (parsed.error) { say(parsed.error, "error"); return; }
      body.dataset.focus = "menu";
      post(form.dataset.diceUrl, { dice: parsed.faces }, true);
    });
    body.dispatchEvent(new CustomEvent("kassen:ready"));
    follow();
  }

  function start() {
    if (page === "index") setupIndex();
    if (page === "table") setupTable();
  }

  // After htmx has processed the page (its own DOMContentLoaded listener was added first).
  if (document.readyState === "complete") start();
  else document.addEventListener("DOMContentLoaded", function () { setTimeout(start, 0); });
})();
