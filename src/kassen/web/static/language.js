/* kassen: the page's language switch (English / 日本語). The choice is this browser's, remembered in a
 * cookie that names a language and nothing else; every page and partial is then rendered in it, and the
 * API's refusals are worded in it. No inline script (CSP). */
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-lang]");
    if (!button) return;
    event.preventDefault();
    var lang = button.dataset.lang;
    if (!/^[a-z]{2}$/.test(lang)) return;
    document.cookie = "kassen_lang=" + lang + "; path=/; max-age=31536000; SameSite=Lax";
    location.reload();  // keeps the address's #t=... fragment: the screen opens again with its token
  });
})();
