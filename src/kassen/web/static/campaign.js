/* kassen campaigns: the token (from the address's #t=... fragment, which browsers never send to a
 * server) goes in the Authorization header of every htmx request; every form goes as JSON (the server
 * takes no other body); the new-campaign form posts to the JSON API. No inline script (CSP). */
(function () {
  "use strict";

  var body = document.body;
  var page = body.dataset.page;
  var campaign = body.dataset.campaign || "";
  var TOKEN = /^[A-Za-z0-9_-]{20,64}$/;
  var token = null;
  // the page's words in its reader's language (English: the text below as it is)
  var WORDS = {};
  try { WORDS = JSON.parse(body.dataset.words || "{}") || {}; } catch (err) { WORDS = {}; }
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

  function tokenFrom(text) {
    var m = String(text || "").match(/[#&?]t=([A-Za-z0-9_-]{20,64})/);
    if (m) return m[1];
    text = String(text || "").trim();
    return TOKEN.test(text) ? text : null;
  }

  function key() { return "kassen.campaign." + campaign; }

  function readToken() {
    var found = tokenFrom(location.hash);
    if (found) {
      sessionStorage.setItem(key(), found);
      localStorage.setItem(key(), found);
      return found;
    }
    return sessionStorage.getItem(key()) || localStorage.getItem(key());
  }

  function detail(xhr) {
    try {
      var j = JSON.parse(xhr.responseText);
      return j.detail || t("the server answered {status}", { status: xhr.status });
    } catch (err) {
      return t("the server answered {status}", { status: xhr.status });
    }
  }

  if (window.htmx) {
    // every form as JSON: an object of its text fields (checkboxes only when ticked)
    window.htmx.defineExtension("kassen-json", {
      onEvent: function (name, evt) {
        if (name === "htmx:configRequest") evt.detail.headers["Content-Type"] = "application/json";
        return true;
      },
      encodeParameters: function (xhr, parameters) {
        xhr.overrideMimeType("text/html");
        var out = {};
        parameters.forEach(function (value, name) {
          if (typeof value === "string") out[name] = value;
        });
        return JSON.stringify(out);
      }
    });
  }

  body.addEventListener("htmx:configRequest", function (evt) {
    if (token) evt.detail.headers["Authorization"] = "Bearer " + token;
  });
  body.addEventListener("htmx:responseError", function (evt) {
    say(detail(evt.detail.xhr), "error");
  });
  body.addEventListener("htmx:afterSwap", function (evt) {
    if (evt.detail.target && evt.detail.target.id === "campaign") {
      say("");
      window.scrollTo(0, 0);
    }
  });

  function ready() {
    if (window.htmx) window.htmx.trigger(body, "kassen:ready");
  }

  if (page === "campaign") {
    token = readToken();
    if (location.hash) history.replaceState(null, "", location.pathname + location.search);
    var form = document.getElementById("token-form");
    if (!token) {
      form.hidden = false;
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var found = tokenFrom(document.getElementById("token-input").value);
        if (!found) { say(t("that is not a campaign link or token"), "error"); return; }
        token = found;
        sessionStorage.setItem(key(), found);
        form.hidden = true;
        ready();
      });
    } else if (document.readyState === "loading") {
      // after htmx's own start (it listens for the same event, and was loaded first)
      document.addEventListener("DOMContentLoaded", function () { setTimeout(ready, 0); });
    } else {
      setTimeout(ready, 0);
    }
  }

  if (page === "campaigns") {
    var create = document.getElementById("new-campaign");
    create.addEventListener("submit", async function (event) {
      event.preventDefault();
      var errors = document.getElementById("new-errors");
      errors.textContent = "";
      var payload = {
        id: document.getElementById("campaign-id").value.trim(),
        name: document.getElementById("campaign-name").value.trim()
      };
      var response;
      try {
        response = await fetch("/api/campaigns", {
          method: "POST",
          headers: { "Content-Type": "application/json", "Accept-Language": document.documentElement.lang || "en" },
          body: JSON.stringify(payload),
          credentials: "omit",
          cache: "no-store"
        });
      } catch (err) {
        errors.textContent = t("the server cannot be reached");
        return;
      }
      var json = null;
      try { json = await response.json(); } catch (err) { json = null; }
      if (response.ok && json) {
        campaign = json.id;
        localStorage.setItem(key(), json.gm_token);
        location.href = "/campaigns/" + json.id + "#t=" + json.gm_token;
        return;
      }
      errors.textContent = (json && json.detail) || t("the server answered {status}", { status: response.status });
    });
  }
})();
