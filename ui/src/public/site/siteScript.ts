/**
 * The one classic script of every public page, loaded in <head> (a file, since the CSP allows no inline
 * script): blocking on `/`, where it must run before the first paint, deferred elsewhere. It stays tiny:
 * - on `/`, a visitor with a session goes to /inbox (SPEC §2; the SPA's session is the `balcao.user` and
 *   `balcao.workspace` keys of localStorage written by ui/src/providers/session.ts, which cannot be imported
 *   here: it listens to `window` as it loads; test/e2e/publicSite.test.ts logs in and checks the redirect);
 * - marks <html class="js">, so the CSS shows the contact dialog by :target only without JavaScript;
 * - a link to a <dialog>'s id opens it as a modal (Escape and a click outside close it), and a link marked
 *   `data-close` inside it closes it.
 */
export const SITE_SCRIPT = `(function () {
  try {
    if (location.pathname === '/' && localStorage.getItem('balcao.user') && localStorage.getItem('balcao.workspace')) {
      location.replace('/inbox');
      return;
    }
  } catch (e) {}
  var root = document.documentElement;
  root.className += ' js';
  function dialogFor(hash) {
    var d = hash.length > 1 ? document.getElementById(hash.slice(1)) : null;
    return d && d.tagName === 'DIALOG' && d.showModal ? d : null;
  }
  document.addEventListener('click', function (e) {
    var target = e.target;
    if (target && target.tagName === 'DIALOG' && target.open) return target.close();
    var a = target && target.closest ? target.closest('a[href^="#"]') : null;
    if (!a) return;
    var open = a.hasAttribute('data-close') ? a.closest('dialog') : null;
    if (open && open.open) {
      e.preventDefault();
      return open.close();
    }
    var d = dialogFor(a.getAttribute('href'));
    if (d) {
      e.preventDefault();
      if (!d.open) d.showModal();
    }
  });
  document.addEventListener('DOMContentLoaded', function () {
    var d = dialogFor(location.hash);
    if (d && !d.open) d.showModal();
  });
})();
`;
